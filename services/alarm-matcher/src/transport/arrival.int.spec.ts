import assert from 'node:assert/strict';
import { direct } from '@stormhook/geometry';
import { TopicNames } from '@stormhook/kafka';
import type { alarmV1, DeepPartial } from '@stormhook/proto';
import { weatherV1 } from '@stormhook/proto';
import { payloadProblems } from '@stormhook/webhooks';
import type { TappedAlarm } from '../test-support/alarm-tap.js';
import { ACCOUNT_A, FULL_WEBHOOK, principal, startHarness, type Harness } from '../test-support/harness.js';
import { ManualClock } from '../test-support/manual-clock.js';
import { publishWeather } from '../test-support/weather-events.js';

const MINUTE = 60_000;
/** Revisions of a tracked cell arrive every 5 minutes, as radar scans do. */
const SCAN_MS = 5 * MINUTE;
const RAD = Math.PI / 180;

/** The point `km` east and `northKm` north of `from`. */
function offset(from: [number, number], eastKm: number, northKm = 0): [number, number] {
  const east = direct(from[0], from[1], (eastKm >= 0 ? 90 : 270) * RAD, Math.abs(eastKm) * 1_000);
  return direct(east[0], east[1], (northKm >= 0 ? 0 : 180) * RAD, Math.abs(northKm) * 1_000);
}

/** A square cell of `sideKm` centred at `centre`, as a weather polygon. */
function squareCell(centre: [number, number], sideKm: number) {
  const h = sideKm / 2;
  const corners = [offset(centre, -h, -h), offset(centre, h, -h), offset(centre, h, h), offset(centre, -h, h), offset(centre, -h, -h)];
  return { exterior: { points: corners.map(([lng, lat]) => ({ lng, lat })) }, holes: [] };
}

/** One revision of a tracked cell observed at `atMs`, with the feed's motion vector or none, and its total flash rate (threshold 3). */
function cellRevision(
  id: string,
  revision: number,
  atMs: number,
  centre: [number, number],
  sideKm: number,
  startMs: number,
  motion?: { speedKmh: number; directionDeg: number },
  flashesPerMin = 5,
): weatherV1.ThunderstormEvent {
  const polygon = squareCell(centre, sideKm);
  return weatherV1.ThunderstormEvent.create({
    eventId: `tst_${id}`,
    sourceEventId: id,
    revision: { revision, sourceUpdatedEpochMs: atMs, ingestedEpochMs: atMs },
    areaKey: id, // one key per cell: its revisions stay in order on one partition
    insertedEpochMs: startMs,
    startEpochMs: startMs,
    endEpochMs: startMs + 3 * 3_600_000,
    severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
    threshold: 3,
    meta: { country: 'TR', state: '', city: '', speedKmh: motion?.speedKmh ?? 0 },
    cell: {
      areaKm2: sideKm * sideKm,
      speedKmh: motion?.speedKmh ?? 0,
      directionDeg: motion?.directionDeg ?? 0,
      flashRates: { inCloud: 0.8 * flashesPerMin, cloudToGround: 0.2 * flashesPerMin, total: flashesPerMin },
      centroid: { lng: centre[0], lat: centre[1] },
      polygon,
    },
    threatPolygon: polygon,
  });
}

/**
 * Storm arrival through the real broker and database: cells published revision by revision on
 * weather.thunderstorm.v1 into one matcher, callbacks read back from alarm.triggered.v1. The truth each
 * test compares with is worked out from the geometry it publishes, not from the matcher's code.
 */
describe('storm arrival: predicted entry, exit and the warning stage (Kafka)', function () {
  this.timeout(120_000);
  const t0 = Math.floor(Date.now() / MINUTE) * MINUTE;
  const clock = new ManualClock(t0);
  let h: Harness;
  const ids: Record<string, string> = {};
  const a = principal(ACCOUNT_A);

  async function register(
    name: string,
    kind: 'REGISTRATION_KIND_POINT' | 'REGISTRATION_KIND_GEOMETRY',
    registration: DeepPartial<alarmV1.AlarmRegistrationInput>,
  ) {
    // The first registration stores the account's webhook; the others reuse it by account id.
    const webhook = Object.keys(ids).length === 0 ? { config: FULL_WEBHOOK } : { accountId: ACCOUNT_A };
    const saved = await h.client.registerAlarm({ principal: a, kind, registration: { recipientId: name, webhook, ...registration } });
    ids[name] = saved.registrationId;
  }

  /** Publishes revisions of one cell (in order: one key) and waits until the registration has `count` callbacks, then a little longer for extras. */
  async function publishAndExpect(events: weatherV1.ThunderstormEvent[], name: string, count: number): Promise<TappedAlarm[]> {
    await publishWeather(h.publisher, TopicNames.WeatherThunderstorm, events);
    return h.alarms.expect(ids[name]!, count, 30_000, 1_000);
  }

  const alarmsOf = (name: string): TappedAlarm[] => h.alarms.forRegistration(ids[name]!);
  const stages = (name: string) => alarmsOf(name).map((x) => x.payload['stage'] as string);

  before(async () => {
    h = await startHarness({ instances: 1, clock });
    // 5 km point alarms north and west of Ankara, each watching only the cell, warned up to 45 minutes ahead.
    for (const [name, lng, lat] of [
      ['approached', 32.25, 40.25],
      ['turned-from', 32.25, 40.1],
      ['read-late', 33.6, 40.6],
      ['decaying-towards', 32.25, 40.6],
    ] as const) {
      await register(name, 'REGISTRATION_KIND_POINT', {
        pointBoundary: { point: { lng, lat }, radiusM: 5_000 },
        weatherFilter: { thunderstorm: { intersectsCellPolygon: true, approach: { leadMinutes: 45 } } },
      });
    }
    // Çankaya (the fake geo's square lng 32.5-33.0, lat 39.5-40.0), without a warning stage.
    await register('district', 'REGISTRATION_KIND_GEOMETRY', {
      geometryBoundary: { cityId: 6, districtId: 1231 },
      weatherFilter: { thunderstorm: { intersectsCellPolygon: true } },
    });
  });

  after(async () => {
    await h?.stop();
  });

  it('warns of a cell moving at 40 km/h towards a 5 km point alarm 30 km away, its arrival within 3 minutes of the true one, then starts', async () => {
    const alarm: [number, number] = [32.25, 40.25];
    // A 6 km cell centred 30 km west, moving east at 40 km/h; the feed sends no vector, so the
    // matcher estimates the motion from the positions. Its east edge (27 km west) meets the
    // circle's west rim (5 km west) after 22 km: 33 minutes after the first scan.
    const trueEntry = t0 + (22 / 40) * 60 * MINUTE;
    const at = (minutes: number) => offset(alarm, -30 + (40 * minutes) / 60);
    // Scans at 0, 5, ... 35 minutes: the second gives a track (an APPROACHING), the one at 35 finds it inside.
    const scans = [0, 5, 10, 15, 20, 25, 30, 35].map((minutes, i) => cellRevision('approach40', i + 1, t0 + minutes * MINUTE, at(minutes), 6, t0));
    const received = await publishAndExpect(scans, 'approached', 2);
    assert.deepEqual(
      received.map((x) => x.payload['stage']),
      ['APPROACHING', 'START'],
    );
    const [warning, start] = received as [TappedAlarm, TappedAlarm];
    assert.equal(warning.payload['type'], 'thunderstorm.approaching');
    assert.equal(warning.message.phase, 'ALARM_PHASE_APPROACHING');
    const eta = warning.payload['eta'] as Record<string, number | string | Record<string, unknown>>;
    const predicted = eta['arrivalEpochMillis'] as number;
    assert.ok(Math.abs(predicted - trueEntry) <= 3 * MINUTE, `predicted ${(predicted - t0) / MINUTE} min, true ${(trueEntry - t0) / MINUTE} min`);
    assert.ok(
      (eta['arrivalEarliestEpochMillis'] as number) <= trueEntry && trueEntry <= (eta['arrivalLatestEpochMillis'] as number),
      'the true arrival lies in the window',
    );
    assert.equal((eta['motion'] as Record<string, unknown>)['source'], 'TRACK');
    assert.ok(Math.abs(((eta['motion'] as Record<string, number>)['towardDeg'] ?? 0) - 90) <= 2);
    assert.equal(warning.payload['eventStartUtc'], Math.floor(predicted / 1000));
    // START's entry is the reconstructed one: within a scan interval of the truth.
    assert.ok(Math.abs((start.payload['eventStartUtc'] as number) * 1000 - trueEntry) <= SCAN_MS, `START entry ${start.payload['eventStartUtc']}`);
    for (const x of received) assert.deepEqual(payloadProblems(x.payload), [], JSON.stringify(x.payload));
  });

  it('cancels the warning when the cell turns away', async () => {
    const alarm: [number, number] = [32.25, 40.1];
    const base = t0 + 60 * MINUTE;
    // 25 km west, heading east at 40 km/h (the feed's vector): within the 45 minute lead.
    const centre = offset(alarm, -25);
    await publishAndExpect([cellRevision('turner', 1, base, centre, 4, base, { speedKmh: 40, directionDeg: 90 })], 'turned-from', 1);
    assert.deepEqual(stages('turned-from'), ['APPROACHING']);
    // Five minutes later it has turned north: it will pass west of the alarm.
    const turned = offset(centre, 0, 40 / 12);
    const received = await publishAndExpect(
      [cellRevision('turner', 2, base + 5 * MINUTE, turned, 4, base, { speedKmh: 40, directionDeg: 0 })],
      'turned-from',
      2,
    );
    assert.deepEqual(
      received.map((x) => `${x.payload['stage'] as string}:${(x.payload['cancelReason'] as string | undefined) ?? ''}`),
      ['APPROACHING:', 'APPROACH_CANCELLED:NO_LONGER_PREDICTED'],
    );
    assert.equal(received[1]!.payload['type'], 'thunderstorm.approach_cancelled');
    assert.equal(received[1]!.payload['eta'], null);
    for (const x of received) assert.deepEqual(payloadProblems(x.payload), [], JSON.stringify(x.payload));
  });

  it('warns only of an arrival still ahead when a revision is read late (a backlog): leads count from now', async () => {
    const alarm: [number, number] = [33.6, 40.6];
    const now = clock.now();
    // 25 km west at 40 km/h: its 4 km cell meets the 5 km circle about 27 minutes after each observation.
    const west = offset(alarm, -25);
    const motion = { speedKmh: 40, directionDeg: 90 };
    // Observed 40 minutes ago: the predicted arrival is past. Then another cell observed 10 minutes ago: 17 minutes ahead.
    await publishWeather(h.publisher, TopicNames.WeatherThunderstorm, [cellRevision('stale', 1, now - 40 * MINUTE, west, 4, now - 40 * MINUTE, motion)]);
    const [warning] = await publishAndExpect([cellRevision('late', 1, now - 10 * MINUTE, west, 4, now - 10 * MINUTE, motion)], 'read-late', 1);
    assert.equal(warning!.payload['eventId'], 'late', 'no warning from the revision whose arrival was already past');
    const eta = warning!.payload['eta'] as Record<string, number>;
    const ahead = (eta['arrivalEpochMillis']! - now) / MINUTE;
    assert.ok(ahead > 12 && ahead < 22, `predicted ${ahead.toFixed(1)} min from now`);
  });

  it("states a storm's entry into and exit from a district it crosses, within one update interval", async () => {
    // A 6 km cell at Çankaya's latitude crossing it west to east at 60 km/h (in 50 minutes, inside the
    // prediction's hour), a scan every 5 minutes.
    // Çankaya is lng 32.5-33.0: the cell's east edge reaches 32.5 at entry, its west edge passes 33.0 at exit.
    const base = t0 + 120 * MINUTE;
    const lat = 39.75;
    const kmPerDegLng = 111.32 * Math.cos(lat * RAD);
    const startCentre = offset([32.5, lat], -12);
    const speed = 60;
    const edgeDistanceKm = (lng: number, centreLng: number) => (lng - centreLng) * kmPerDegLng;
    const trueEntry = base + ((edgeDistanceKm(32.5, startCentre[0]) - 3) / speed) * 60 * MINUTE;
    const trueExit = base + ((edgeDistanceKm(33.0, startCentre[0]) + 3) / speed) * 60 * MINUTE;
    const scans = Array.from({ length: 19 }, (_, i) =>
      cellRevision('crosser', i + 1, base + i * SCAN_MS, offset(startCentre, (speed * i * 5) / 60), 6, base, { speedKmh: speed, directionDeg: 90 }),
    );
    const received = await publishAndExpect(scans, 'district', 2);
    assert.deepEqual(
      received.map((x) => x.payload['stage']),
      ['START', 'END'],
    );
    const [start, end] = received as [TappedAlarm, TappedAlarm];
    const ms = (x: TappedAlarm, field: string) => (x.payload[field] as number) * 1000;
    assert.ok(Math.abs(ms(start, 'eventStartUtc') - trueEntry) <= SCAN_MS, `START entry off by ${(ms(start, 'eventStartUtc') - trueEntry) / MINUTE} min`);
    assert.ok(Math.abs(ms(start, 'eventEndUtc') - trueExit) <= SCAN_MS, `START predicted exit off by ${(ms(start, 'eventEndUtc') - trueExit) / MINUTE} min`);
    assert.equal(end.payload['endReason'], 'LEFT_AREA');
    assert.equal(end.payload['eventStartUtc'], start.payload['eventStartUtc'], 'the END keeps the entry its START announced');
    assert.ok(Math.abs(ms(end, 'eventEndUtc') - trueExit) <= SCAN_MS, `END exit off by ${(ms(end, 'eventEndUtc') - trueExit) / MINUTE} min`);
    assert.equal(start.payload['stormStartUtc'], Math.floor(base / 1000));
    for (const x of received) assert.deepEqual(payloadProblems(x.payload), [], JSON.stringify(x.payload));
  });
  it('sends no warning of a cell whose flash rate falls towards its end, and still starts when it arrives', async () => {
    const alarm: [number, number] = [32.25, 40.6];
    const base = t0 + 180 * MINUTE;
    // A 6 km cell 60 km west, moving east at 40 km/h (the feed's vector): its east edge meets the
    // circle's rim after 52 km, 78 minutes on, so it is within the 45 minute lead from the scan at
    // 35 minutes. Its flash rate falls by 2 a minute every 5 minutes from 20: at 35 minutes, 6 and
    // falling 0.4 a minute, it reaches the threshold of 3 in 7.5 minutes, long before it would
    // arrive. It goes on falling more slowly towards the threshold, its trend always ending it before
    // the predicted entry, never crossing it, and arrives all the same.
    const rates = [20, 18, 16, 14, 12, 10, 8, 6, 5.2, 4.6, 4.1, 3.7, 3.45, 3.25, 3.12, 3.05, 3.01];
    const scans = rates.map((rate, i) =>
      cellRevision('decayer', i + 1, base + i * SCAN_MS, offset(alarm, -60 + (40 * i * 5) / 60), 6, base, { speedKmh: 40, directionDeg: 90 }, rate),
    );
    // The last scan, at 80 minutes, finds the cell inside (its east edge 1.3 km past the rim).
    const received = await publishAndExpect(scans, 'decaying-towards', 1);
    assert.deepEqual(
      received.map((x) => x.payload['stage']),
      ['START'],
    );
    const eta = received[0]!.payload['eta'] as Record<string, unknown>;
    assert.equal((eta['motion'] as Record<string, unknown>)['source'], 'FEED', 'the prediction itself is still given');
  });
});
