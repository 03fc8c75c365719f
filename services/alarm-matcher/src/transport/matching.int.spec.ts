import assert from 'node:assert/strict';
import { MongoClient } from 'mongodb';
import { direct } from '@stormhook/geometry';
import { databaseName } from '@stormhook/mongo';
import { enumValue, weatherV1, type alarmV1, type DeepPartial } from '@stormhook/proto';
import { testInfra } from '@stormhook/testing';
import { COLLECTIONS } from '../persistence/collections.js';
import { until, type TappedAlarm } from '../test-support/alarm-tap.js';
import { ACCOUNT_A, FULL_WEBHOOK, principal, startHarness, type Harness } from '../test-support/harness.js';
import { ManualClock } from '../test-support/manual-clock.js';
import { lightningEvent, precipitationEvent, publishWeather, thunderstormEvent } from '../test-support/weather-events.js';
import { TopicNames } from '@stormhook/kafka';
import { payloadProblems } from '@stormhook/webhooks';

const QUIET_MS = 30 * 60_000;
const RING_CENTRE: [number, number] = [30.0, 39.4];

/**
 * Weather events through the real broker into two matcher instances (one consumer group, the
 * registration broadcast between them), alarms read back from alarm.triggered.v1. Areas are the
 * fake geo's squares: Çankaya (district 1231) is lng 32.5-33.0, lat 39.5-40.0.
 */
describe('real-time matching through Kafka (two instances)', function () {
  this.timeout(90_000);
  const clock = new ManualClock(Date.now());
  let h: Harness;
  let mongo: MongoClient;
  const ids: Record<string, string> = {};
  const a = principal(ACCOUNT_A);

  async function register(
    name: string,
    kind: 'REGISTRATION_KIND_POINT' | 'REGISTRATION_KIND_GEOMETRY',
    registration: DeepPartial<alarmV1.AlarmRegistrationInput>,
  ) {
    const saved = await h.client.registerAlarm({ principal: a, kind, registration: { recipientId: name, webhook: { accountId: ACCOUNT_A }, ...registration } });
    ids[name] = saved.registrationId;
  }

  /**
   * Publishes events, then a marker strike on the same partition key (records of one key are
   * processed in order), and waits for the marker's alarm: everything before it has been handled.
   */
  let markers = 0;
  async function settle(): Promise<void> {
    markers++;
    await publishWeather(h.publisher, TopicNames.WeatherLightning, [lightningEvent(29.05, 41.0, { timeEpochMs: clock.now() })]);
    await h.alarms.expect(ids['marker']!, markers);
  }

  const count = (name: string) => h.alarms.forRegistration(ids[name]!).length;
  const stagesOf = (alarms: TappedAlarm[]) =>
    alarms.map((x) => `${x.payload['stage'] as string}${x.payload['endReason'] ? `:${x.payload['endReason'] as string}` : ''}`);

  before(async () => {
    h = await startHarness({ instances: 2, clock });
    mongo = await new MongoClient(testInfra().mongoUrl).connect();
    await h.client
      .registerAlarm({
        principal: a,
        kind: 'REGISTRATION_KIND_POINT',
        registration: {
          recipientId: 'marker',
          pointBoundary: { point: { lng: 29.05, lat: 41.0 }, radiusM: 1_000 },
          webhook: { config: FULL_WEBHOOK },
          weatherFilter: { lightning: {} },
        },
      })
      .then((r) => (ids['marker'] = r.registrationId));
    // Keçiören has no geometry alarm: the point alarm there is alone.
    await register('point', 'REGISTRATION_KIND_POINT', {
      pointBoundary: { point: { lng: 32.25, lat: 40.25 }, radiusM: 5_000 },
      weatherFilter: {
        lightning: { type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND', peakCurrentAmperes: -20_000 },
        precipitation: { intensities: ['PRECIPITATION_INTENSITY_MODERATE', 'PRECIPITATION_INTENSITY_HEAVY'] },
      },
    });
    await register('district', 'REGISTRATION_KIND_GEOMETRY', {
      geometryBoundary: { cityId: 6, districtId: 1231 },
      weatherFilter: {
        lightning: { type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 4_500 },
        thunderstorm: { intersectsCellPolygon: true, severityThreshold: 'THUNDERSTORM_SEVERITY_MEDIUM', speedThresholdKmh: 20 },
        precipitation: { intensities: ['PRECIPITATION_INTENSITY_HEAVY'] },
      },
    });
    // A 3 km point alarm near Kütahya with a 10 km approach ring.
    await register('ring', 'REGISTRATION_KIND_POINT', {
      pointBoundary: { point: { lng: RING_CENTRE[0], lat: RING_CENTRE[1] }, radiusM: 3_000 },
      weatherFilter: { lightning: { approachRadiusM: 10_000 } },
    });
    // The second instance learns of them through the broadcast.
    await until(() => Object.values(ids).every((id) => h.matchers[1]!.matcher.index.get(id) !== undefined), 'the registrations to reach the second instance');
  });

  after(async () => {
    await mongo?.close();
    await h?.stop();
  });

  it('matches lightning inside the area and passing the filter; nothing outside or below', async () => {
    const now = clock.now();
    const hit = lightningEvent(32.25, 40.29, { timeEpochMs: now, peakCurrentAmperes: -20_000 }); // about 4.4 km north, at the threshold
    const icHit = lightningEvent(32.7, 39.7, { timeEpochMs: now, type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 4_500 });
    await publishWeather(h.publisher, TopicNames.WeatherLightning, [
      hit,
      lightningEvent(32.25, 40.25, { timeEpochMs: now, peakCurrentAmperes: -19_999 }), // just below
      lightningEvent(32.25, 40.3, { timeEpochMs: now, peakCurrentAmperes: -30_000 }), // about 5.5 km: outside the radius
      lightningEvent(32.25, 40.25, { timeEpochMs: now, type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD' }), // wrong type
      icHit,
      lightningEvent(32.7, 39.7, { timeEpochMs: now, type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 4_501 }), // just above the height
      lightningEvent(33.01, 39.7, { timeEpochMs: now, type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 3_000 }), // just east of the district
      lightningEvent(32.7, 39.7, { timeEpochMs: now }), // cloud-to-ground: wrong type for the district
    ]);
    await settle();
    assert.equal(count('point'), 1);
    assert.equal(count('district'), 1);
    const [alarm] = h.alarms.forRegistration(ids['point']!);
    assert.equal(alarm!.key, ids['point'], 'keyed by registration');
    assert.equal(alarm!.message.eventKind, 'ALARM_EVENT_KIND_LIGHTNING');
    assert.equal(alarm!.message.phase, 'ALARM_PHASE_START');
    assert.equal(alarm!.message.accountId, ACCOUNT_A);
    assert.equal(alarm!.message.eventId, hit.eventId);
    assert.equal(alarm!.headers['event-id'], alarm!.message.notificationId);
    const payload = alarm!.payload;
    assert.equal(payload['id'], alarm!.message.notificationId);
    assert.equal(alarm!.message.acknowledgementId, payload['id']);
    assert.equal(payload['strikeId'], hit.sourceEventId);
    assert.equal(payload['peakCurrent'], -20_000);
    assert.equal(payload['type'], 'lightning.strike');
    assert.equal(payload['payloadVersion'], 2);
    assert.equal(payload['timestamp'], new Date(payload['timeEpochMillis'] as number).toISOString());
    assert.equal(payload['dischargeType'], 'FLASH_CLOUD_TO_GROUND');
    assert.equal(payload['inCloudHeight'], null);
    assert.deepEqual(payload['multiplicity'], { strokes: 2 });
    assert.ok(Math.abs((payload['distance'] as number) - 4_423) < 30, `distance ${String(payload['distance'])}`);
    assert.equal(h.alarms.forRegistration(ids['district']!)[0]!.payload['eventId'], icHit.eventId);
  });

  it('gives nothing new when the same strikes are replayed', async () => {
    const replay = h.alarms.alarms.filter((x) => x.message.eventKind === 'ALARM_EVENT_KIND_LIGHTNING' && x.message.registrationId !== ids['marker']);
    assert.ok(replay.length >= 2);
    const before = h.alarms.alarms.length;
    await publishWeather(
      h.publisher,
      TopicNames.WeatherLightning,
      replay.map((x) =>
        lightningEvent(x.payload['longitude'] as number, x.payload['latitude'] as number, {
          eventId: x.message.eventId,
          sourceEventId: x.payload['strikeId'] as string,
          timeEpochMs: x.payload['timeEpochMillis'] as number,
          type: `LIGHTNING_TYPE_${x.payload['dischargeType'] as 'FLASH_IN_CLOUD'}`,
          peakCurrentAmperes: x.payload['peakCurrent'] as number,
          ...(x.payload['inCloudHeight'] === null ? {} : { inCloudHeightM: x.payload['inCloudHeight'] as number }),
        }),
      ),
    );
    await settle();
    assert.equal(h.alarms.alarms.length, before + 1, 'only the marker alarm is new');
  });

  it('warns once per episode of lightning in the approach ring, on its second ring strike, then strikes inside start', async () => {
    const now = clock.now();
    const east = (km: number, atMs: number) => {
      const [lng, lat] = direct(RING_CENTRE[0], RING_CENTRE[1], Math.PI / 2, km * 1_000);
      return lightningEvent(lng, lat, { timeEpochMs: atMs, areaKey: 'ring' });
    };
    const strikes = [
      east(8, now - 50_000), // 5 km beyond the edge: opens the ring episode, alone it says nothing
      east(6, now - 40_000), // 3 km beyond, nearer: the one approaching notice
      east(5, now - 30_000), // still in the ring: the episode was announced already
      east(20, now - 20_000), // 17 km beyond: outside the ring
    ];
    await publishWeather(h.publisher, TopicNames.WeatherLightning, strikes);
    await h.alarms.expect(ids['ring']!, 1);
    await publishWeather(h.publisher, TopicNames.WeatherLightning, strikes.slice(0, 3)); // replayed: nothing new
    const inside = east(2, now - 10_000);
    await publishWeather(h.publisher, TopicNames.WeatherLightning, [inside]);
    await h.alarms.expect(ids['ring']!, 2);
    await settle();
    const alarms = h.alarms.forRegistration(ids['ring']!);
    assert.deepEqual(
      alarms.map((x) => x.payload['type']),
      ['lightning.approaching', 'lightning.strike'],
    );
    const [approach] = alarms;
    assert.equal(approach!.message.phase, 'ALARM_PHASE_APPROACHING');
    assert.deepEqual(payloadProblems(approach!.payload), []);
    assert.equal(approach!.payload['eventId'], strikes[1]!.eventId, 'sent by the second ring strike');
    assert.equal(approach!.payload['closing'], true);
    assert.equal(approach!.payload['strikesInRing'], 2);
    assert.equal(approach!.payload['firstStrikeEpochMillis'], now - 50_000);
    assert.equal(approach!.payload['approachRadius'], 10_000);
    assert.ok(Math.abs((approach!.payload['distance'] as number) - 3_000) < 20, `distance ${String(approach!.payload['distance'])}`);
    assert.equal(approach!.payload['nearestDistance'], approach!.payload['distance']);
    assert.equal(alarms[1]!.payload['eventId'], inside.eventId);
  });

  it('follows a thunderstorm: new, not again, worse, then END when its cell leaves', async () => {
    const inside: [number, number, number] = [32.7, 39.7, 0.1]; // covers the district's centroid (32.75, 39.75)
    const outside: [number, number, number] = [33.2, 39.6, 0.1];
    const threat: [number, number, number] = [32.5, 39.5, 0.8];
    const storm = (revision: number, cell: [number, number, number], severity: 'MEDIUM' | 'HIGH') =>
      thunderstormEvent(cell, threat, {
        eventId: 'tst_life',
        sourceEventId: 'EAF-life',
        revision: { revision },
        severity: enumValue(weatherV1.ThunderstormSeverity, severity),
      });
    await publishWeather(h.publisher, TopicNames.WeatherThunderstorm, [
      storm(1, inside, 'MEDIUM'),
      storm(2, inside, 'MEDIUM'),
      storm(3, inside, 'HIGH'),
      storm(4, outside, 'HIGH'), // the threat still covers the district, but this registration watches the cell
      // Filter rules: severity below, speed below, and only the threat (not the cell) touching.
      thunderstormEvent(inside, threat, { eventId: 'tst_low', severity: 'THUNDERSTORM_SEVERITY_LOW' }),
      thunderstormEvent(inside, threat, { eventId: 'tst_slow', meta: { speedKmh: 19.9 } }),
      thunderstormEvent(inside, threat, { eventId: 'tst_at_speed', meta: { speedKmh: 20 } }),
      thunderstormEvent(outside, threat, { eventId: 'tst_threat_only' }),
    ]);
    await settle();
    const storms = h.alarms.forRegistration(ids['district']!).filter((x) => x.message.eventKind === 'ALARM_EVENT_KIND_THUNDERSTORM');
    assert.deepEqual(
      storms.map((x) => x.payload['thunderstormId']).filter((id) => id !== 'tst_life'),
      ['tst_at_speed'],
      'only the storm at the speed threshold',
    );
    const thunder = storms.filter((x) => x.payload['thunderstormId'] === 'tst_life');
    assert.deepEqual(stagesOf(thunder), ['START', 'UPDATE', 'END:LEFT_AREA']);
    const [start, worse, end] = thunder.map((x) => x.payload);
    assert.equal(start!['thunderstormId'], 'tst_life');
    assert.equal(start!['eventId'], 'EAF-life');
    assert.equal(start!['severity'], 'MEDIUM');
    assert.equal(worse!['severity'], 'HIGH');
    assert.equal(typeof start!['eventStartUtc'], 'number');
    assert.ok((start!['eventStartUtc'] as number) < 1e11, 'epoch seconds');
    assert.equal((start!['cell'] as { distance: number }).distance, 0);
    assert.ok((end!['cell'] as { distance: number }).distance > 0);
    assert.equal((start!['affectedPolygon'] as { exterior: unknown[] }).exterior.length, 5);

    // Replaying the whole life of the storm changes nothing.
    await publishWeather(h.publisher, TopicNames.WeatherThunderstorm, [storm(1, inside, 'MEDIUM'), storm(3, inside, 'HIGH'), storm(4, outside, 'HIGH')]);
    await settle();
    assert.equal(h.alarms.forRegistration(ids['district']!).filter((x) => x.message.eventKind === 'ALARM_EVENT_KIND_THUNDERSTORM').length, storms.length);
  });

  it('follows precipitation by intensity: new, worse, then END when it moves away', async () => {
    const rain = (revision: number, area: [number, number, number], intensity: 'MODERATE' | 'HEAVY' | 'LIGHT') =>
      precipitationEvent(area, {
        eventId: 'prc_life',
        revision: { revision },
        intensity: enumValue(weatherV1.PrecipitationIntensity, intensity),
        radarTimestampEpochMs: clock.now(),
      });
    await publishWeather(h.publisher, TopicNames.WeatherPrecipitation, [
      rain(1, [32.2, 40.2, 0.1], 'MODERATE'),
      rain(2, [32.2, 40.2, 0.1], 'HEAVY'),
      rain(3, [32.6, 40.2, 0.1], 'HEAVY'), // about 25 km east: outside the 5 km circle
      precipitationEvent([32.2, 40.2, 0.1], { intensity: 'PRECIPITATION_INTENSITY_LIGHT' }), // intensity not listed
    ]);
    await settle();
    const rainAlarms = h.alarms.forRegistration(ids['point']!).filter((x) => x.message.eventKind === 'ALARM_EVENT_KIND_PRECIPITATION');
    assert.deepEqual(
      rainAlarms.map((x) => `${x.payload['stage'] as string}:${x.payload['intensity'] as string}`),
      ['START:MODERATE', 'UPDATE:HEAVY', 'END:HEAVY'],
    );
    assert.equal(rainAlarms[2]!.payload['endReason'], 'LEFT_AREA');
    assert.equal(rainAlarms[0]!.payload['eventId'], 'prc_life');
  });

  it('ends an event that stops being updated, once, however many instances sweep', async () => {
    const now = clock.now();
    await publishWeather(h.publisher, TopicNames.WeatherThunderstorm, [
      // Every time on the test's clock: its expiry counts from the later of end and insertion, and a
      // default insertion time (the wall clock) runs minutes ahead of a clock made when mocha loaded the file.
      thunderstormEvent([32.6, 39.6, 0.1], [32.6, 39.6, 0.2], { eventId: 'tst_expire', insertedEpochMs: now, startEpochMs: now, endEpochMs: now + 60_000 }),
    ]);
    await settle();
    // The START goes out before its state is written (publish first, so a crash re-sends, never
    // loses): the sweep reads stored states, so wait for the write it is meant to find.
    const stored = mongo.db(databaseName('alarm_matcher', h.dbPrefix)).collection(COLLECTIONS.trackedStates);
    for (const deadline = Date.now() + 15_000; (await stored.countDocuments({ _id: 'tst_expire' as never, activeCount: { $gt: 0 } })) === 0;) {
      if (Date.now() > deadline) throw new Error('the state of tst_expire was never stored');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const before = h.alarms.forRegistration(ids['district']!).length;
    clock.advance(60_000 + 10 * 60_000 + 1); // past its end plus the grace period
    await Promise.all(h.matchers.map((m) => m.matcher.sweeper.sweep()));
    // The sweep's END goes out through the claim-and-publish batches, which the lightning marker of
    // settle() can overtake on a busy machine: wait for the END itself, then settle so a second END
    // (from the other instance's sweep) would have arrived too.
    for (const deadline = Date.now() + 15_000; h.alarms.forRegistration(ids['district']!).length === before && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await settle();
    const after = h.alarms.forRegistration(ids['district']!).slice(before);
    assert.deepEqual(
      after.map((x) => `${x.payload['stage'] as string}:${x.payload['endReason'] as string}`),
      ['END:EXPIRED'],
    );
    assert.equal(after[0]!.payload['thunderstormId'], 'tst_expire');
    // Rebuilt from the stored last revision: a complete END of its own type, valid against its schema.
    assert.equal(after[0]!.payload['type'], 'thunderstorm.end');
    assert.deepEqual(payloadProblems(after[0]!.payload), []);
  });

  it('sends one lightning all-clear after the quiet period, then a new episode starts', async () => {
    const before = h.alarms.forRegistration(ids['point']!).length;
    clock.advance(QUIET_MS + 60_000); // the quiet period plus the write interval of lightning episodes (ALARM_LIGHTNING_PERSIST_MS)
    await Promise.all(h.matchers.map((m) => m.matcher.sweeper.sweep()));
    await Promise.all(h.matchers.map((m) => m.matcher.sweeper.sweep()));
    await settle();
    const cleared = h.alarms.forRegistration(ids['point']!).slice(before);
    assert.deepEqual(
      cleared.map((x) => x.message.phase),
      ['ALARM_PHASE_ALL_CLEAR'],
    );
    assert.equal(cleared[0]!.payload['quietPeriodMinutes'], 30);
    assert.equal(cleared[0]!.payload['stage'], 'ALL_CLEAR');
    assert.ok(
      h.alarms.forRegistration(ids['district']!).some((x) => x.message.phase === 'ALARM_PHASE_ALL_CLEAR'),
      'the district had a strike too',
    );

    await publishWeather(h.publisher, TopicNames.WeatherLightning, [lightningEvent(32.25, 40.25, { timeEpochMs: clock.now() })]);
    // Records of different areas are matched at once (records in flight), so the marker of settle()
    // can overtake this strike: wait for the new episode itself, then check nothing else came.
    await until(() => h.alarms.forRegistration(ids['point']!).length > before + 1, 'the new episode of the point alarm');
    await settle();
    const latest = h.alarms.forRegistration(ids['point']!).slice(before + 1);
    assert.deepEqual(
      latest.map((x) => x.message.phase),
      ['ALARM_PHASE_START'],
    );
  });

  it('stops matching a registration on every instance once it is unregistered', async () => {
    await h.client.unregisterAlarm({ principal: a, kind: 'REGISTRATION_KIND_POINT', registrationId: ids['point']! });
    await until(() => h.matchers.every((m) => m.matcher.index.get(ids['point']!) === undefined), 'the removal to reach every instance');
    const before = count('point');
    await publishWeather(h.publisher, TopicNames.WeatherLightning, [lightningEvent(32.25, 40.25, { timeEpochMs: clock.now() })]);
    await settle();
    assert.equal(count('point'), before);
  });
});
