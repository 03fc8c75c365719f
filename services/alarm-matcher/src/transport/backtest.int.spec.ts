import assert from 'node:assert/strict';
import { GrpcError, GrpcStatus, httpStatusOfError } from '@stormhook/grpc';
import type { BacktestWiring } from '../compose.js';
import { isUuid } from '../domain/validate-draft.js';
import { DependencyUnavailableError } from '../ports/dependency.js';
import type { BacktestInput, BacktestOutcome, BacktestRunner } from '../usecases/backtest/backtest-outcome.js';
import { ACCOUNT_A, principal, startHarness, type Harness } from '../test-support/harness.js';

const POINT = 'REGISTRATION_KIND_POINT' as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

async function failure(call: Promise<unknown>): Promise<GrpcError> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof GrpcError, `expected a GrpcError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

/**
 * The back-test runner as the port (usecases/backtest/backtest-outcome.ts) sees it: records what it
 * is asked to run and answers an outcome of the window, or fails as the test says. The matching
 * runner is tested on its own; this spec is about the rpc around it.
 */
class RecordingRunner implements BacktestRunner {
  readonly inputs: BacktestInput[] = [];
  wiring: BacktestWiring | undefined;
  fail: Error | undefined;

  async run(input: BacktestInput): Promise<BacktestOutcome> {
    this.inputs.push(input);
    if (this.fail) throw this.fail;
    const at = input.fromMs + HOUR;
    return {
      fromMs: input.fromMs,
      toMs: input.toMs,
      callbacks: 1,
      firstCallbackMs: at,
      lastCallbackMs: at,
      days: [{ day: '2026-01-01', callbacks: 1, byType: [{ callbackType: 'lightning.strike', stage: 'START', callbacks: 1 }] }],
      byType: [{ callbackType: 'lightning.strike', stage: 'START', callbacks: 1 }],
      samples: [
        {
          callbackType: 'lightning.strike',
          atMs: at,
          payloadJson: `{"type":"lightning.strike","registrationId":"${input.registration.registrationId}","simulation":true}`,
        },
      ],
      coverage: [{ dataKind: 'LIGHTNING', covered: [{ fromMs: input.fromMs, toMs: input.toMs }], gaps: [] }],
      sweep: {
        field: 'filter.lightning.peakCurrent',
        current: '12500',
        points: [
          { value: '0', callbacks: 3 },
          { value: '12500', callbacks: 1 },
        ],
      },
      warnings: [],
    };
  }
}

describe('BacktestAlarm over gRPC (real Kafka and database, fake geo and identity, a recording runner)', function () {
  this.timeout(60_000);
  let h: Harness;
  const runner = new RecordingRunner();
  const a = principal(ACCOUNT_A);
  const draft = {
    recipientId: 'field-7',
    pointBoundary: { point: { lng: 32.75, lat: 39.75 }, radiusM: 5_000 },
    weatherFilter: { lightning: { type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND' as const, peakCurrentAmperes: 12_500 } },
  };
  const lastWeek = () => ({ fromEpochMs: Date.now() - 7 * DAY, toEpochMs: Date.now() - DAY });

  before(async () => {
    h = await startHarness({
      backtestRunner: (wiring) => {
        runner.wiring = wiring;
        return runner;
      },
    });
  });
  after(async () => {
    await h?.stop();
  });
  beforeEach(() => {
    runner.fail = undefined;
  });

  it("builds the runner from the live matchers' settings and query's history", () => {
    assert.ok(runner.wiring, 'the factory was called at start');
    assert.equal(runner.wiring.lightningQuietMs, 30 * 60_000, 'ALARM_LIGHTNING_QUIET_PERIOD_MS');
    assert.equal(runner.wiring.maxEventAgeMs, 2 * HOUR, 'ALARM_MAX_EVENT_AGE_MS');
    assert.equal(typeof runner.wiring.history.read, 'function');
  });

  it('runs a draft without a webhook for the caller, under a draft id that is never stored, and answers its outcome', async () => {
    const window = lastWeek();
    const answer = await h.client.backtestAlarm({ principal: a, kind: POINT, registration: draft, ...window });
    const input = runner.inputs.at(-1)!;
    assert.equal(input.registration.accountId, ACCOUNT_A);
    assert.equal(input.registration.kind, 'POINT');
    assert.deepEqual({ fromMs: input.fromMs, toMs: input.toMs }, { fromMs: window.fromEpochMs, toMs: window.toEpochMs });
    assert.ok(isUuid(input.registration.registrationId));
    assert.equal(answer.callbacks, 1);
    assert.equal(answer.firstCallbackEpochMs, window.fromEpochMs + HOUR);
    assert.deepEqual(answer.byType, [{ callbackType: 'lightning.strike', stage: 'START', callbacks: 1 }]);
    assert.equal(JSON.parse(answer.samples[0]!.payloadJson).registrationId, input.registration.registrationId);
    assert.deepEqual(
      answer.sweep?.points.map((p) => p.callbacks),
      [3, 1],
    );
    const stored = await failure(h.client.getAlarm({ principal: a, kind: POINT, registrationId: input.registration.registrationId }));
    assert.equal(stored.code, GrpcStatus.NOT_FOUND, 'nothing was stored');
    assert.equal((await h.client.listAlarms({ principal: a, kind: POINT })).registrations.length, 0);
  });

  it('refuses a window in the future as INVALID_ARGUMENT naming to, before running anything', async () => {
    const before = runner.inputs.length;
    const error = await failure(
      h.client.backtestAlarm({ principal: a, kind: POINT, registration: draft, fromEpochMs: Date.now() - DAY, toEpochMs: Date.now() + HOUR }),
    );
    assert.equal(error.code, GrpcStatus.INVALID_ARGUMENT);
    assert.equal(error.detail?.metadata['field'], 'to');
    assert.equal(httpStatusOfError(error), 400);
    assert.equal(runner.inputs.length, before);
  });

  it('refuses a draft as register does: a caller without an account, a field out of range', async () => {
    const noAccount = await failure(h.client.backtestAlarm({ principal: { ...a, accountId: '' }, kind: POINT, registration: draft, ...lastWeek() }));
    assert.equal(noAccount.detail?.reason, 'ACCOUNT_REQUIRED');
    const radius = await failure(
      h.client.backtestAlarm({ principal: a, kind: POINT, registration: { ...draft, pointBoundary: { ...draft.pointBoundary, radiusM: 50 } }, ...lastWeek() }),
    );
    assert.equal(radius.detail?.metadata['field'], 'boundary.radius');
  });

  it("answers 503 QUERY_UNAVAILABLE when query's history does not answer", async () => {
    runner.fail = new DependencyUnavailableError('query', 'ReadHistory: connection refused');
    const error = await failure(h.client.backtestAlarm({ principal: a, kind: POINT, registration: draft, ...lastWeek() }));
    assert.equal(error.code, GrpcStatus.UNAVAILABLE);
    assert.equal(error.detail?.reason, 'QUERY_UNAVAILABLE');
    assert.equal(httpStatusOfError(error), 503);
  });
});
