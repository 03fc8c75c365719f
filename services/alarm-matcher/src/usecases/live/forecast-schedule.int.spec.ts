import assert from 'node:assert/strict';
import { GrpcError } from '@stormhook/grpc';
import type { alarmV1, DeepPartial } from '@stormhook/proto';
import { until } from '../../test-support/alarm-tap.js';
import { ACCOUNT_A, FULL_WEBHOOK, principal, startHarness, type Harness } from '../../test-support/harness.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { forecastEvent, publishWeather } from '../../test-support/weather-events.js';
import { TopicNames } from '@stormhook/kafka';

const HOUR = 3_600_000;
const DAY = Date.UTC(2030, 0, 15);

/** 24 hourly values valid 01:00..24:00 of `day` (the hours that make up that UTC day's amounts). */
const hoursOf = (dayIndex: number, value: number, total = 72) => Array.from({ length: total }, (_, i) => (Math.floor(i / 24) === dayIndex ? value : 0));

/**
 * Forecast alarms at 04:00 and 16:00 UTC with an injected clock and two matcher instances on one
 * database: exactly one evaluation per slot, a missed slot caught up once and marked late, and the
 * operator's rerun.
 */
describe('forecast alarm schedule (two instances, injected clock)', function () {
  this.timeout(90_000);
  const clock = new ManualClock(DAY + 3 * HOUR);
  let h: Harness;
  const ids: Record<string, string> = {};
  const admin = principal('0c0c0c0c-3333-4333-8333-0c0c0c0c0c0c', 'ADMIN');

  async function register(
    name: string,
    registration: DeepPartial<alarmV1.AlarmRegistrationInput>,
    webhook: DeepPartial<alarmV1.RegistrationWebhook> = { accountId: ACCOUNT_A },
  ) {
    const saved = await h.client.registerAlarm({
      principal: principal(ACCOUNT_A),
      kind: 'REGISTRATION_KIND_FORECAST',
      registration: { recipientId: name, webhook, ...registration },
    });
    ids[name] = saved.registrationId;
    return saved;
  }

  before(async () => {
    h = await startHarness({ instances: 2, clock });
    // Hourly series start at 01:00 of the slot day, so index 0..23 is that UTC day's amounts.
    await publishWeather(h.publisher, TopicNames.WeatherForecast, [
      forecastEvent('run-1', DAY - 6 * HOUR, DAY + HOUR, [
        { cellId: 'c1', lng: 32.6, lat: 39.6, series: { PRECIPITATION: hoursOf(0, 0.5), TEMPERATURE: hoursOf(0, 5) } },
        { cellId: 'c2', lng: 32.9, lat: 39.9, series: { PRECIPITATION: hoursOf(1, 1), TEMPERATURE: hoursOf(0, 3) } },
        { cellId: 'c3', lng: 32.26, lat: 40.26, series: { WIND_GUSTS: hoursOf(0, 55), TEMPERATURE: hoursOf(0, 2) } },
      ]),
    ]);
    await until(async () => (await h.matchers[0]!.matcher.forecasts.all()).length === 3, 'the forecast cells to be stored');
    await until(() => h.matchers.every((m) => m.matcher.forecastCells.size === 3), 'both instances to hold the forecast cells');
    await register(
      'district',
      {
        forecastBoundary: { administrative: { cityId: 6, districtId: 1231 } },
        forecastFilter: { precipitationThreshold: 'MODERATE' },
        forecastDays: 2,
        forecastAlarmDelivery: ['FORECAST_DELIVERY_MORNING'],
      },
      { config: FULL_WEBHOOK },
    );
    const point = await register('point-gusts', {
      forecastBoundary: { point: { lng: 32.25, lat: 40.25 } },
      forecastFilter: { windGustThreshold: 'STRONG_WIND', coldTemperatureThreshold: 'COLD_SNAP' },
      forecastDays: 1,
      forecastAlarmDelivery: ['FORECAST_DELIVERY_MORNING', 'FORECAST_DELIVERY_EVENING'],
    });
    assert.equal(point.resolvedForecastCell?.cellId, 'c3');
    await register('point-calm', {
      forecastBoundary: { point: { lng: 32.25, lat: 40.25 } },
      forecastFilter: { hotTemperatureThreshold: 'WARM' },
      forecastDays: 3,
      forecastAlarmDelivery: ['FORECAST_DELIVERY_MORNING'],
    });
    await register('evening-only', {
      forecastBoundary: { administrative: { cityId: 6, districtId: 1231 } },
      forecastFilter: { precipitationThreshold: 'LIGHT' },
      forecastDays: 1,
      forecastAlarmDelivery: ['FORECAST_DELIVERY_EVENING'],
    });
    // Slots evaluate the alarms each instance holds in memory; the other instance learns of them by the broadcast.
    await until(
      () => h.matchers.every((m) => Object.values(ids).every((id) => m.matcher.forecastAlarms.get(id) !== undefined)),
      'both instances to hold the forecast alarms',
    );
  });

  after(async () => {
    await h?.stop();
  });

  it('does nothing before 04:00 UTC', async () => {
    const outcomes = (await Promise.all(h.matchers.map((m) => m.matcher.scheduler.tick()))).flat();
    assert.ok(outcomes.every((o) => o.slotId !== '2030-01-15T04:00Z'));
  });

  it('evaluates the MORNING slot exactly once though both instances tick at once', async () => {
    clock.set(DAY + 4 * HOUR + 30_000);
    const outcomes = (await Promise.all(h.matchers.map((m) => m.matcher.scheduler.tick()))).flat().filter((o) => o.slotId.startsWith('2030-01-15T04:00Z'));
    assert.equal(outcomes.filter((o) => o.evaluated).length, 1, JSON.stringify(outcomes));
    const [evaluated] = outcomes.filter((o) => o.evaluated);
    assert.equal(evaluated!.late, false);
    assert.equal(evaluated!.registrations, 3, 'the MORNING registrations only');
    assert.equal(evaluated!.notifications, 2);
    assert.equal(evaluated!.forecastRunId, 'run-1');

    const district = await h.alarms.expect(ids['district']!, 1);
    const gusts = await h.alarms.expect(ids['point-gusts']!, 1);
    assert.equal(h.alarms.forRegistration(ids['point-calm']!).length, 0, 'no threshold breached');
    assert.equal(h.alarms.forRegistration(ids['evening-only']!).length, 0, 'not a MORNING registration');

    const payload = district[0]!.payload;
    assert.equal(district[0]!.message.eventKind, 'ALARM_EVENT_KIND_FORECAST');
    assert.equal(payload['id'], district[0]!.message.notificationId);
    assert.equal(payload['delivery'], 'MORNING');
    assert.equal(payload['scheduledTime'], '2030-01-15T04:00:00.000Z');
    assert.equal(payload['late'], false);
    assert.equal(payload['city'], 'Ankara');
    assert.equal(payload['district'], 'Çankaya');
    assert.equal(payload['districtId'], 1231);
    assert.equal(payload['distance'], 0);
    assert.deepEqual(payload['violations'], [
      {
        metric: 'PRECIPITATION',
        unit: 'mm',
        threshold: 'MODERATE',
        thresholdValue: 10,
        comparison: '>=',
        forecasts: [
          { time: '2030-01-15T00:00:00Z', value: 12, cellId: 'c1', latitude: 39.6, longitude: 32.6 },
          { time: '2030-01-16T00:00:00Z', value: 24, cellId: 'c2', latitude: 39.9, longitude: 32.9 },
        ],
      },
    ]);

    const point = gusts[0]!.payload;
    assert.equal(point['city'], null, 'names are null for POINT, as the incumbent');
    assert.equal(point['districtId'], 1231 + 1, 'the district containing the point (Keçiören)');
    assert.equal(point['latitude'], 40.25);
    assert.ok((point['distance'] as number) > 1_000 && (point['distance'] as number) < 1_500, `distance ${String(point['distance'])}`);
    assert.deepEqual(
      (point['violations'] as Array<{ metric: string }>).map((v) => v.metric),
      ['WIND_GUSTS_MAX'],
      'the cold threshold is not breached',
    );
  });

  it('does not evaluate the slot again, on later ticks or on a restarted instance', async () => {
    clock.advance(5 * 60_000);
    await h.matchers[1]!.stop();
    h.matchers.splice(1, 1);
    const restarted = await h.startMatcher();
    const outcomes = (await Promise.all([restarted.matcher.scheduler.tick(), h.matchers[0]!.matcher.scheduler.tick()])).flat();
    assert.ok(
      outcomes.every((o) => !o.evaluated),
      JSON.stringify(outcomes),
    );
    const again = await h.client.runForecastSlot({ principal: admin, delivery: 'FORECAST_DELIVERY_MORNING', dayEpochMs: DAY });
    assert.equal(again.evaluated, false);
    assert.equal(h.alarms.forRegistration(ids['district']!).length, 1);
  });

  it('catches up a missed slot once after downtime, marked late', async () => {
    // Both instances "were down" over the next day's 04:00 slot; the first tick afterwards runs it.
    clock.set(DAY + 24 * HOUR + 9 * HOUR);
    const outcomes = (await Promise.all(h.matchers.map((m) => m.matcher.scheduler.tick()))).flat();
    const evaluated = outcomes.filter((o) => o.evaluated);
    assert.deepEqual(
      evaluated.map((o) => [o.slotId, o.late]),
      [['2030-01-16T04:00Z', true]],
    );
    const [late] = (await h.alarms.expect(ids['district']!, 2)).slice(1);
    assert.equal(late!.payload['late'], true);
    // Day 2 of the run is now "today": only its breach is listed.
    assert.deepEqual(
      (late!.payload['violations'] as Array<{ forecasts: Array<{ time: string }> }>)[0]!.forecasts.map((f) => f.time),
      ['2030-01-16T00:00:00Z'],
    );
    const more = (await Promise.all(h.matchers.map((m) => m.matcher.scheduler.tick()))).flat();
    assert.ok(more.every((o) => !o.evaluated));
  });

  it('lets an operator rerun a slot (ADMIN only), with new notification ids', async () => {
    await assert.rejects(
      h.client.runForecastSlot({ principal: principal(ACCOUNT_A), delivery: 'FORECAST_DELIVERY_MORNING', dayEpochMs: DAY, rerun: true }),
      (error: unknown) => error instanceof GrpcError && error.detail?.httpStatus === 403,
    );
    const rerun = await h.client.runForecastSlot({ principal: admin, delivery: 'FORECAST_DELIVERY_MORNING', dayEpochMs: DAY, rerun: true });
    assert.equal(rerun.evaluated, true);
    assert.equal(rerun.slotId, '2030-01-15T04:00Z#rerun-1');
    assert.equal(rerun.notifications, 2);
    const district = await h.alarms.expect(ids['district']!, 3);
    assert.equal(new Set(district.map((x) => x.message.notificationId)).size, 3);
  });
});
