import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import { databaseName } from '@stormhook/mongo';
import type { alarmV1, DeepPartial } from '@stormhook/proto';
import { testInfra } from '@stormhook/testing';
import { slotOn } from '../../forecast/slots.js';
import { COLLECTIONS } from '../../persistence/collections.js';
import { until } from '../../test-support/alarm-tap.js';
import { ACCOUNT_A, FULL_WEBHOOK, principal, startHarness, type Harness } from '../../test-support/harness.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { forecastEvent, publishWeather } from '../../test-support/weather-events.js';
import { TopicNames } from '@stormhook/kafka';

const HOUR = 3_600_000;
const DAY = Date.UTC(2030, 0, 15);
const hoursOf = (dayIndex: number, value: number, total = 48) => Array.from({ length: total }, (_, i) => (Math.floor(i / 24) === dayIndex ? value : 0));

/**
 * Forecast alarms live in each instance's memory, kept current by alarm.registration-changed.v1:
 * changes made through instance 0 reach the slot evaluated by instance 1 without any read of the
 * registrations at the slot.
 */
describe('forecast alarms held in memory, kept current by registration events (two instances)', function () {
  this.timeout(90_000);
  const clock = new ManualClock(DAY + 4 * HOUR + 30_000);
  const slot = slotOn('MORNING', DAY);
  let h: Harness;
  let mongo: MongoClient;

  const input = (recipientId: string, filter: DeepPartial<alarmV1.AlarmRegistrationInput>['forecastFilter']): DeepPartial<alarmV1.AlarmRegistrationInput> => ({
    recipientId,
    forecastBoundary: { point: { lng: 32.25, lat: 40.25 } },
    forecastFilter: filter,
    forecastDays: 1,
    forecastAlarmDelivery: ['FORECAST_DELIVERY_MORNING'],
  });
  const held = (registrationId: string) => h.matchers[1]!.matcher.forecastAlarms.get(registrationId);
  const runSlot = () => h.matchers[1]!.matcher.slots.run(slot, { rerun: true });

  before(async () => {
    h = await startHarness({ instances: 2, clock });
    mongo = new MongoClient(testInfra().mongoUrl);
    await mongo.connect();
    await publishWeather(h.publisher, TopicNames.WeatherForecast, [
      forecastEvent('run-1', DAY - 6 * HOUR, DAY + HOUR, [
        { cellId: 'c3', lng: 32.26, lat: 40.26, series: { WIND_GUSTS: hoursOf(0, 55), TEMPERATURE: hoursOf(0, 2) } },
      ]),
    ]);
    await until(() => h.matchers.every((m) => m.matcher.forecastCells.size === 1), 'both instances to hold the forecast cell');
  });

  after(async () => {
    await mongo?.close();
    await h?.stop();
  });

  it('reflects register, update and unregister made through instance 0 in the next slot of instance 1', async () => {
    const registered = await h.client.registerAlarm({
      principal: principal(ACCOUNT_A),
      kind: 'REGISTRATION_KIND_FORECAST',
      registration: { ...input('gusts', { windGustThreshold: 'STRONG_WIND' }), webhook: { config: FULL_WEBHOOK } },
    });
    const id = registered.registrationId;
    await until(() => held(id)?.version === registered.version, 'the registration to reach instance 1');
    let outcome = await runSlot();
    assert.deepEqual([outcome.registrations, outcome.notifications], [1, 1], 'registered: breached (55 km/h gusts)');
    await h.alarms.expect(id, 1);

    const updated = await h.client.updateAlarm({
      principal: principal(ACCOUNT_A),
      kind: 'REGISTRATION_KIND_FORECAST',
      registration: { ...input('gusts', { windGustThreshold: 'STORM' }), registrationId: id, webhook: { accountId: ACCOUNT_A } },
    });
    assert.ok(updated.version > registered.version);
    await until(() => held(id)?.version === updated.version, 'the update to reach instance 1');
    outcome = await runSlot();
    assert.deepEqual([outcome.registrations, outcome.notifications], [1, 0], 'updated: the STORM threshold is not breached');

    await h.client.unregisterAlarm({ principal: principal(ACCOUNT_A), kind: 'REGISTRATION_KIND_FORECAST', registrationId: id });
    await until(() => held(id) === undefined, 'the removal to reach instance 1');
    outcome = await runSlot();
    assert.deepEqual([outcome.registrations, outcome.notifications], [0, 0], 'unregistered: not evaluated');
    assert.equal(h.alarms.forRegistration(id).length, 1, 'one notification in all, from the first slot');
  });

  it('evaluates a registration made on another instance from memory, even with its stored document gone', async () => {
    const saved = await h.client.registerAlarm({
      principal: principal(ACCOUNT_A),
      kind: 'REGISTRATION_KIND_FORECAST',
      registration: { ...input('memory', { windGustThreshold: 'STRONG_WIND' }), webhook: { accountId: ACCOUNT_A } },
    });
    await until(() => held(saved.registrationId) !== undefined, 'the broadcast to reach instance 1');
    // Taken away behind the matchers' backs (no broadcast): a slot reading the database would miss it.
    await mongo
      .db(databaseName('alarm_matcher', h.dbPrefix))
      .collection(COLLECTIONS.registrations)
      .deleteOne({ _id: saved.registrationId as never });
    const outcome = await runSlot();
    assert.deepEqual([outcome.evaluated, outcome.registrations, outcome.notifications], [true, 1, 1]);
    const [alarm] = await h.alarms.expect(saved.registrationId, 1);
    assert.equal(alarm!.message.eventKind, 'ALARM_EVENT_KIND_FORECAST');
  });
});
