import assert from 'node:assert/strict';
import type { AccessSnapshot } from '@stormhook/access';
import { publishOn, TopicNames } from '@stormhook/kafka';
import { until } from '../test-support/alarm-tap.js';
import { entitledOwner } from '../test-support/fake-identity.js';
import { ACCOUNT_A, ACCOUNT_B, FULL_WEBHOOK, principal, startHarness, type Harness } from '../test-support/harness.js';
import { ManualClock } from '../test-support/manual-clock.js';
import { lightningEvent, publishWeather } from '../test-support/weather-events.js';

/**
 * Entitlement for as long as a registration lives (issue 23 item 3), through the real broker: the
 * owner's change arrives as an identity.user-changed.v1 record, identity's answer (set by the test)
 * is read again, and strikes inside the area are notified or held back. Account B, always
 * entitled, has a point alarm at the same place: its alarm for a strike shows the strike was handled.
 */
describe('registrations of accounts no longer entitled (Kafka)', function () {
  this.timeout(90_000);
  const clock = new ManualClock(Date.now());
  let h: Harness;
  const ids: Record<string, string> = {};
  // İstanbul in the fake geo: lng 28.5-29.0, lat 40.8-41.3.
  const HERE = { lng: 28.75, lat: 41.05 };
  const userA = `${ACCOUNT_A.slice(0, 8)}-user`;
  let strikes = 0;

  function ownerA(change: (snapshot: AccessSnapshot) => void): AccessSnapshot {
    const snapshot = structuredClone(entitledOwner(ACCOUNT_A));
    change(snapshot);
    return snapshot;
  }

  /** Identity's answer changes, and identity says so on the bus; resolves once the matcher holds it. */
  async function ownerChanges(owner: AccessSnapshot, expectSuspended: string | undefined): Promise<void> {
    h.identity.set(ACCOUNT_A, owner);
    await publishOn(h.publisher, TopicNames.UserChanged, [
      { key: userA, message: { userId: userA, change: 'SUBSCRIPTION', apiKeyId: '', changedAtEpochMs: clock.now() } },
    ]);
    const book = h.matchers[0]!.matcher.entitlements;
    await until(
      () => book.suspension({ registrationId: ids['point']!, accountId: ACCOUNT_A, kind: 'POINT' })?.reason === expectSuspended,
      `suspension ${expectSuspended ?? 'none'}`,
    );
  }

  /** A strike at HERE; resolves once account B's alarm for it is out (A's, if any, left in the same batch). */
  async function strike(): Promise<void> {
    strikes++;
    await publishWeather(h.publisher, TopicNames.WeatherLightning, [lightningEvent(HERE.lng, HERE.lat, { timeEpochMs: clock.now() })]);
    await h.alarms.expect(ids['witness']!, strikes);
  }

  const countA = () => h.alarms.forRegistration(ids['point']!).length + h.alarms.forRegistration(ids['district']!).length;

  before(async () => {
    h = await startHarness({ clock });
    const register = async (name: string, accountId: string, registration: object, kind: 'REGISTRATION_KIND_POINT' | 'REGISTRATION_KIND_GEOMETRY') => {
      const saved = await h.client.registerAlarm({ principal: principal(accountId), kind, registration: { recipientId: name, ...registration } });
      ids[name] = saved.registrationId;
    };
    await register(
      'witness',
      ACCOUNT_B,
      { pointBoundary: { point: HERE, radiusM: 2_000 }, webhook: { config: FULL_WEBHOOK }, weatherFilter: { lightning: {} } },
      'REGISTRATION_KIND_POINT',
    );
    await register(
      'point',
      ACCOUNT_A,
      { pointBoundary: { point: HERE, radiusM: 2_000 }, webhook: { config: FULL_WEBHOOK }, weatherFilter: { lightning: {} } },
      'REGISTRATION_KIND_POINT',
    );
    await register(
      'district',
      ACCOUNT_A,
      { geometryBoundary: { cityId: 34 }, webhook: { accountId: ACCOUNT_A }, weatherFilter: { lightning: {} } },
      'REGISTRATION_KIND_GEOMETRY',
    );
    await h.matchers[0]!.matcher.entitlements.refresh();
  });

  after(async () => {
    await h?.stop();
  });

  it('notifies both kinds while the account is entitled', async () => {
    await strike();
    assert.equal(countA(), 2);
  });

  it('holds back both kinds while the plan is narrowed to Ankara, and resumes when it covers İstanbul again', async () => {
    await ownerChanges(
      ownerA((s) => (s.account!.subscription.geographicBoundaries = [{ country: 'TUR', region: 'Ankara' }])),
      'OUTSIDE_GEOGRAPHIC_BOUNDARIES',
    );
    const before = countA();
    await strike();
    assert.equal(countA(), before, 'no callback for a suspended registration');
    const view = () => h.client.getAlarm({ principal: principal(ACCOUNT_A), kind: 'REGISTRATION_KIND_POINT', registrationId: ids['point']! });
    assert.equal((await view()).suspended?.reason, 'OUTSIDE_GEOGRAPHIC_BOUNDARIES', 'the view says why');
    await ownerChanges(
      ownerA(() => undefined),
      undefined,
    );
    assert.equal((await view()).suspended ?? undefined, undefined, 'resumed: no suspended member');
    await strike();
    assert.equal(countA(), before + 2);
  });

  it('holds back while the user is blocked', async () => {
    await ownerChanges(
      ownerA((s) => (s.status = 'BLOCKED')),
      'USER_BLOCKED',
    );
    const before = countA();
    await strike();
    assert.equal(countA(), before);
    await ownerChanges(
      ownerA(() => undefined),
      undefined,
    );
    await strike();
    assert.equal(countA(), before + 2);
  });

  it('holds back once the plan expires, with no event at the expiry', async () => {
    await ownerChanges(
      ownerA((s) => (s.account!.subscription.expiresAt = new Date(clock.now() + 60_000))),
      undefined,
    );
    const before = countA();
    await strike();
    assert.equal(countA(), before + 2, 'still live');
    clock.advance(60_000);
    await strike();
    assert.equal(countA(), before + 2, 'expired by the clock alone');
  });
});
