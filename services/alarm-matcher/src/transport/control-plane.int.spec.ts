import assert from 'node:assert/strict';
import { createClient, GrpcError, GrpcStatus, testInternalTokens, tokenOfRequestPrincipal, type GrpcClient } from '@stormhook/grpc';
import { alarmV1 } from '@stormhook/proto';
import { ACCOUNT_A, FULL_WEBHOOK, principal, startHarness, type Harness } from '../test-support/harness.js';

/** The matcher's own deadline for calls to geo and the notifier when its caller set none. */
const OWN_DEADLINE_MS = 300;

describe("registration calls share the API caller's deadline (real Kafka and database, fake geo and notifier)", function () {
  this.timeout(60_000);
  let h: Harness;
  let client: GrpcClient<typeof alarmV1.AlarmMatcherService>;
  let n = 0;

  const register = (deadlineMs: number) =>
    client.registerAlarm(
      alarmV1.RegisterAlarmRequest.create({
        principal: principal(ACCOUNT_A),
        kind: 'REGISTRATION_KIND_POINT',
        registration: {
          recipientId: `cp-${n++}`,
          pointBoundary: { point: { lat: 39.9, lng: 32.85 }, radiusM: 3_000 },
          webhook: { config: FULL_WEBHOOK },
          weatherFilter: { lightning: {} },
        },
      }),
      { deadlineMs },
    );

  before(async () => {
    h = await startHarness({ env: { GRPC_DEADLINE_MS: String(OWN_DEADLINE_MS) } });
    // Plays the gateway: its calls carry the internal token of the principal they name.
    client = createClient(alarmV1.AlarmMatcherService, `127.0.0.1:${h.matchers[0]!.port}`, {
      internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'alarm-matcher'),
    });
  });
  after(async () => {
    client?.close();
    await h?.stop();
  });

  it("waits for a slow notifier as long as its caller waits, not only the matcher's own call deadline", async () => {
    // Under storm load the notifier answered in seconds; a fixed per-call deadline turned registrations
    // whose caller still waited into 503s. An account's first registration makes two notifier calls.
    h.notifier.delayMs = 3 * OWN_DEADLINE_MS;
    const saved = await register(10_000);
    assert.ok(saved.registrationId, 'registered');
    assert.equal(h.notifier.endpoints.size, 1, 'the webhook was stored on the first registration');
  });

  it("still ends by the caller's deadline when the notifier is slower than that", async () => {
    h.notifier.delayMs = 5_000;
    const began = Date.now();
    const error = await register(1_000).then(
      () => assert.fail('expected the registration to fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrpcError);
    assert.ok([GrpcStatus.UNAVAILABLE, GrpcStatus.DEADLINE_EXCEEDED].includes(error.code), `got ${error.code}`);
    assert.ok(Date.now() - began < 2_500, `answered after ${Date.now() - began} ms`);
  });
});
