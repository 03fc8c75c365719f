import assert from 'node:assert/strict';
import { publishOn, TopicNames, type ChannelName, type MessageOf } from '@stormhook/kafka';
import { weatherV1 } from '@stormhook/proto';
import { WEBHOOK_EVENT_TYPES } from '@stormhook/webhooks';
import { CANKAYA as CANKAYA_PLACES } from '../e2e/support/places.js';
import { CallbackSchemas } from '../support/callback-schemas.js';
import { forecastRun, HOUR, precipitation, thunderstorm } from '../weather/fixtures.js';
import { ANKARA, CANKAYA, Receiver, eventually, fullWebhook, startAlarmStack, type AlarmStack, type ReceivedCallback, type TestUser } from './support.js';

const DAY = 24 * HOUR;

type WeatherEvent = { eventId: string; areaKey: string; revision?: { revision: number } | null | undefined };

/**
 * Every callback type of the OpenAPI `webhooks` section, really delivered: a strike and its
 * all-clear, a thunderstorm and a rain area that start, get worse (UPDATE) and move away (END), a
 * storm and a rain area that approach a point alarm and turn away, a forecast slot, and a test send, all through gateway, Kafka, matcher and notifier to a local
 * receiver. Each callback is checked against the document the gateway serves, its header included.
 */
describe('every webhook callback type delivered and valid against the served OpenAPI', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let user: TestUser;
  let schemas: CallbackSchemas;
  const receiver = new Receiver();
  const reg: { geometry?: string; forecast?: string; warned?: string } = {};
  /** A 5 km point alarm at Polatlı, west of Ankara, warned up to an hour before storms and rain arrive. */
  const POLATLI = { lng: 32.15, lat: 39.58 };
  const tag = `cbt${Date.now().toString(36)}`;

  before(async function () {
    this.timeout(180_000);
    // The all-clear follows 4 s without strikes (30 minutes by default), looked for twice a second.
    stack = await startAlarmStack({ ALARM_LIGHTNING_QUIET_PERIOD_MS: '4000', ALARM_LIGHTNING_PERSIST_MS: '0', ALARM_SWEEP_INTERVAL_MS: '500' });
    schemas = await CallbackSchemas.served(stack.baseUrl);
    await receiver.start();
    user = await stack.user('API_USER');
    const geometry = await stack.call('POST', '/v1/alarms/geometries/register', {
      token: user.token,
      body: {
        recipientId: 'district-cankaya',
        boundary: { cityId: ANKARA, districtId: CANKAYA },
        webhook: fullWebhook(receiver.url('/types')),
        filter: {
          lightning: {},
          thunderstorm: { intersectsAffectedPolygon: true, intersectsCellPolygon: true, severityThreshold: 'LOW' },
          precipitation: { intensities: ['LIGHT', 'MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME'] },
        },
      },
    });
    assert.equal(geometry.status, 200, JSON.stringify(geometry.body));
    reg.geometry = String(geometry.body['registrationId']);
    const forecast = await stack.call('POST', '/v1/alarms/forecasts/register', {
      token: user.token,
      body: {
        recipientId: 'district-cankaya',
        boundary: { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA },
        forecastDays: 1,
        forecastAlarmDelivery: ['MORNING'],
        webhook: { accountId: user.accountId },
        filter: { hotTemperatureThreshold: 'HOT_SNAP' },
      },
    });
    assert.equal(forecast.status, 200, JSON.stringify(forecast.body));
    reg.forecast = String(forecast.body['registrationId']);
    const warned = await stack.call('POST', '/v1/alarms/points/register', {
      token: user.token,
      body: {
        recipientId: 'polatli-site',
        boundary: { point: POLATLI, radius: 5_000 },
        webhook: { accountId: user.accountId },
        filter: {
          lightning: { approachRadius: 10_000 },
          thunderstorm: { intersectsCellPolygon: true, approach: { leadMinutes: 60 } },
          precipitation: { intensities: [], approach: { leadMinutes: 60 } },
        },
      },
    });
    assert.equal(warned.status, 200, JSON.stringify(warned.body));
    reg.warned = String(warned.body['registrationId']);
  });
  after(async () => {
    await receiver.stop();
    await stack?.stop();
  });

  const bodyOf = (call: ReceivedCallback) => JSON.parse(call.body) as Record<string, any>;
  /** The first callback of `type` (about `eventId` when given), checked against the served document. */
  async function callback(type: string, eventId?: string): Promise<Record<string, any>> {
    const call = await eventually(
      () => receiver.received.find((c) => bodyOf(c)['type'] === type && (eventId === undefined || bodyOf(c)['eventId'] === eventId)),
      30_000,
      `a ${type} callback${eventId ? ` about ${eventId}` : ''}`,
    );
    return schemas.assertSound(call);
  }

  async function publish<N extends ChannelName>(topic: N, events: ReadonlyArray<MessageOf<N> & WeatherEvent>): Promise<void> {
    await publishOn(
      stack.matcher.platform.publisher,
      topic,
      events.map((event) => ({ key: event.areaKey, message: event, eventId: `evt_${event.eventId}_r${event.revision?.revision ?? 1}` })),
    );
  }
  const revision = (n: number) => ({ revision: n, sourceVersion: n, sourceUpdatedEpochMs: 0, ingestedEpochMs: Date.now() });

  it('lightning: a strike over the district, then its all-clear once the quiet period has passed', async () => {
    const strike = weatherV1.LightningEvent.create({
      eventId: `ltg_${tag}`,
      sourceEventId: tag,
      revision: revision(1),
      areaKey: 'sxk',
      timeEpochMs: Date.now(),
      type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
      location: CANKAYA_PLACES.centre,
      peakCurrentAmperes: -20_000,
      multiplicity: 1,
    });
    await publish(TopicNames.WeatherLightning, [strike]);
    const struck = await callback('lightning.strike', strike.eventId);
    assert.equal(struck['registrationId'], reg.geometry);
    const clear = await callback('lightning.all_clear');
    assert.equal(clear['registrationId'], reg.geometry);
    assert.equal(clear['stage'], 'ALL_CLEAR');
  });

  it('lightning approaching: a second strike in the 10 km ring beyond the Polatlı site, nearer than the first', async () => {
    // At 39.58° N a tenth of a degree of longitude is about 8.6 km: the strikes fall about 5.3 and 3.1 km beyond the 5 km circle.
    const strikes = [0.12, 0.095].map((east, n) =>
      weatherV1.LightningEvent.create({
        eventId: `ltg_${tag}-ring${n}`,
        sourceEventId: `${tag}-ring${n}`,
        revision: revision(1),
        areaKey: 'polatli-ring',
        timeEpochMs: Date.now() - (2 - n) * 1_000,
        type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
        location: { lng: POLATLI.lng + east, lat: POLATLI.lat },
        peakCurrentAmperes: -15_000,
        multiplicity: 1,
      }),
    );
    await publish(TopicNames.WeatherLightning, strikes);
    const approaching = await callback('lightning.approaching', strikes[1]!.eventId);
    assert.equal(approaching['registrationId'], reg.warned);
    assert.equal(approaching['closing'], true);
    assert.ok(Math.abs((approaching['distance'] as number) - 3_140) < 200, `distance ${String(approaching['distance'])}`);
  });

  it('thunderstorm: START, UPDATE when its severity rises, END when it has left the district', async () => {
    const start = Date.now() - 2 * 60_000;
    const storm = (at: { lng: number; lat: number }, n: number, severity: weatherV1.ThunderstormSeverity) =>
      thunderstorm(`${tag}-storm`, at, start, start + 30 * 60_000, { revision: revision(n), severity });
    const eventId = `${tag}-storm`; // storm payloads name the source's id (thunderstormId is ours)
    await publish(TopicNames.WeatherThunderstorm, [storm(CANKAYA_PLACES.centre, 1, 'THUNDERSTORM_SEVERITY_MEDIUM')]);
    assert.equal((await callback('thunderstorm.start', eventId))['severity'], 'MEDIUM');
    await publish(TopicNames.WeatherThunderstorm, [storm(CANKAYA_PLACES.centre, 2, 'THUNDERSTORM_SEVERITY_HIGH')]);
    const update = await callback('thunderstorm.update', eventId);
    assert.equal(update['stage'], 'UPDATE');
    assert.equal(update['severity'], 'HIGH');
    await publish(TopicNames.WeatherThunderstorm, [storm(CANKAYA_PLACES.eastOutside, 3, 'THUNDERSTORM_SEVERITY_HIGH')]);
    assert.equal((await callback('thunderstorm.end', eventId))['endReason'], 'LEFT_AREA');
  });

  it('precipitation: START, UPDATE when its intensity rises, END when it has left the district', async () => {
    const scan = Date.now() - 60_000;
    const rain = (at: { lng: number; lat: number }, n: number, intensity: weatherV1.PrecipitationIntensity) =>
      precipitation(`${tag}-rain`, at, scan + n, intensity, { revision: revision(n) });
    const eventId = `prc_${tag}-rain`;
    await publish(TopicNames.WeatherPrecipitation, [rain(CANKAYA_PLACES.centre, 1, 'PRECIPITATION_INTENSITY_MODERATE')]);
    assert.equal((await callback('precipitation.start', eventId))['intensity'], 'MODERATE');
    await publish(TopicNames.WeatherPrecipitation, [rain(CANKAYA_PLACES.centre, 2, 'PRECIPITATION_INTENSITY_HEAVY')]);
    const update = await callback('precipitation.update', eventId);
    assert.equal(update['stage'], 'UPDATE');
    assert.equal(update['intensity'], 'HEAVY');
    await publish(TopicNames.WeatherPrecipitation, [rain(CANKAYA_PLACES.eastOutside, 3, 'PRECIPITATION_INTENSITY_HEAVY')]);
    assert.equal((await callback('precipitation.end', eventId))['endReason'], 'LEFT_AREA');
  });

  it('approaching: a storm and a rain area heading for Polatlı warn, then turn north and cancel the warning', async () => {
    const now = Date.now();
    // 25 km west of the alarm, moving east at 40 km/h (the feed's vector); five minutes later moving north.
    const west = { lng: POLATLI.lng - 25 / (111.32 * Math.cos((POLATLI.lat * Math.PI) / 180)), lat: POLATLI.lat };
    const north = { lng: west.lng, lat: west.lat + 40 / 12 / 111.2 };
    const motion = (directionDeg: number) => ({ speedKmh: 40, directionDeg });
    const storm = (at: { lng: number; lat: number }, n: number, directionDeg: number) => {
      const base = thunderstorm(`${tag}-approach`, at, now - 60_000, now + 3_600_000, {
        revision: { ...revision(n), sourceUpdatedEpochMs: now + (n - 1) * 300_000 },
      });
      return { ...base, areaKey: 'approach-storm', meta: { ...base.meta!, speedKmh: 40 }, cell: { ...base.cell!, ...{ speedKmh: 40, directionDeg } } };
    };
    const rain = (at: { lng: number; lat: number }, n: number, directionDeg: number) => ({
      ...precipitation(`${tag}-approach-rain`, at, now + (n - 1) * 300_000, 'PRECIPITATION_INTENSITY_MODERATE', {
        revision: revision(n),
        motion: motion(directionDeg),
      }),
      areaKey: 'approach-rain',
    });
    await publish(TopicNames.WeatherThunderstorm, [storm(west, 1, 90)]);
    await publish(TopicNames.WeatherPrecipitation, [rain(west, 1, 90)]);
    const stormWarning = await callback('thunderstorm.approaching', `${tag}-approach`);
    assert.equal(stormWarning['registrationId'], reg.warned);
    assert.ok(stormWarning['eta']['arrivalEpochMillis'] > now, JSON.stringify(stormWarning['eta']));
    const rainWarning = await callback('precipitation.approaching', `prc_${tag}-approach-rain`);
    assert.ok(rainWarning['timeEpochMillis'] > rainWarning['observedEpochMillis'], 'rain predicted to reach the centre later');
    await publish(TopicNames.WeatherThunderstorm, [storm(north, 2, 0)]);
    await publish(TopicNames.WeatherPrecipitation, [rain(north, 2, 0)]);
    assert.equal((await callback('thunderstorm.approach_cancelled', `${tag}-approach`))['cancelReason'], 'NO_LONGER_PREDICTED');
    assert.equal((await callback('precipitation.approach_cancelled', `prc_${tag}-approach-rain`))['cancelReason'], 'NO_LONGER_PREDICTED');
  });

  it("forecast: tomorrow's MORNING slot over a hot forecast delivers the forecast alarm", async () => {
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    const run = `${tag}-run`;
    // From 38 °C, a degree warmer each hour, for three days: above HOT_SNAP (35 °C) all of tomorrow.
    const cells = [
      { id: `${tag}-c1`, at: CANKAYA_PLACES.centre, base: 38 },
      { id: `${tag}-c2`, at: CANKAYA_PLACES.west, base: 38 },
    ];
    await publish(TopicNames.WeatherForecast, [forecastRun(run, hour, hour, cells, 72)]);
    const dayMs = Math.floor(Date.now() / DAY) * DAY + DAY;
    const timeMs = dayMs + 4 * HOUR;
    const slot = { delivery: 'MORNING' as const, dayMs, timeMs, id: `${new Date(timeMs).toISOString().slice(0, 16)}Z` };
    let runs = 0;
    // The run reaches the matcher's forecast cells asynchronously: rerun the slot until it is used.
    await eventually(
      async () => {
        const outcome = await stack.matcher.matcher.slots.run(slot, { rerun: runs++ > 0 });
        return outcome.notifications > 0 && outcome.forecastRunId === run ? outcome : undefined;
      },
      30_000,
      'a slot evaluation on the published forecast run',
    );
    const alarm = await callback('forecast.alarm');
    assert.equal(alarm['registrationId'], reg.forecast);
    assert.equal(alarm['forecastRunId'], run);
    assert.equal(alarm['delivery'], 'MORNING');
  });

  it('webhook.test: a test send to the stored webhook', async () => {
    const sent = await stack.call('POST', '/v1/alarms/webhooks/test', { token: user.token });
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    const test = await callback('webhook.test');
    assert.equal(test['id'], sent.body['notificationId']);
  });

  it('delivered every type of the webhooks section, and nothing that fails its schema', () => {
    for (const call of receiver.received) schemas.assertSound(call);
    const delivered = new Set(receiver.received.map((call) => bodyOf(call)['type'] as string));
    assert.deepEqual(
      schemas.types.filter((type) => !delivered.has(type)),
      [],
      'types of the served document never delivered',
    );
    assert.deepEqual(schemas.types, [...WEBHOOK_EVENT_TYPES], 'the served document lists the whole catalogue');
  });
});
