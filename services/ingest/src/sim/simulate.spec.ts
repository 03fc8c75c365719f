import assert from 'node:assert/strict';
import { feedV1 } from '@stormhook/proto';
import { INTENSITIES } from '../domain/intensity.js';
import { DEFAULT_RULES } from '../domain/rules.js';
import { validateFeedMessage, type FeedMessage } from '../domain/validate.js';
import type { LngLat } from '../domain/geo/types.js';
import { distanceKm, moveKm, offsetKm } from './geo-math.js';
import { observedMotion, velocityAt } from './motion.js';
import { ANKARA, DEFAULT_SIM_OPTIONS, POLATLI, type SimOptions } from './options.js';
import { WeatherSimulator, type SimRecord } from './simulate.js';
import { stateAt, type StormSystem } from './storms.js';
import { TopicNames } from '@stormhook/kafka';

/** A July afternoon: convection season, several storms alive with seed 1. */
const START = Date.UTC(2025, 6, 15, 12, 0);
const HOUR = 3_600_000;
const OPTS: SimOptions = { ...DEFAULT_SIM_OPTIONS, forecast: { ...DEFAULT_SIM_OPTIONS.forecast, days: 2, gridDeg: 1 } };

function collect(sim: WeatherSimulator, from: number, to: number): Array<{ t: number; r: SimRecord }> {
  const out: Array<{ t: number; r: SimRecord }> = [];
  for (const tick of sim.ticks(from, to)) for (const r of tick.records) out.push({ t: tick.timeMs, r });
  return out;
}

function decode(r: SimRecord): FeedMessage {
  switch (r.topic) {
    case TopicNames.FeedPrecipitation:
      return { feed: 'precipitation', message: feedV1.PrecipitationObservation.decode(r.value) };
    case TopicNames.FeedLightning:
      return { feed: 'lightning', message: feedV1.LightningStrike.decode(r.value) };
    case TopicNames.FeedThunderstorm:
      return { feed: 'thunderstorm', message: feedV1.ThunderstormCell.decode(r.value) };
    default:
      return { feed: 'forecast', message: feedV1.ForecastGrid.decode(r.value) };
  }
}

/** Speed and heading from a to b over `hours`, measured in the km frame the system moves in. */
function motionBetween(system: StormSystem, a: LngLat, b: LngLat, hours: number): { speedKmh: number; directionDeg: number } {
  const degPerKmEast = offsetKm(system.origin, 1, 0).lng - system.origin.lng;
  const degPerKmNorth = offsetKm(system.origin, 0, 1).lat - system.origin.lat;
  const east = (b.lng - a.lng) / degPerKmEast;
  const north = (b.lat - a.lat) / degPerKmNorth;
  return { speedKmh: Math.hypot(east, north) / hours, directionDeg: ((((Math.atan2(east, north) * 180) / Math.PI) % 360) + 360) % 360 };
}

const angleDeg = (a: number, b: number) => Math.abs(((((a - b + 180) % 360) + 360) % 360) - 180);

const fingerprint = (records: Array<{ t: number; r: SimRecord }>) =>
  records.map(({ t, r }) => `${t}|${r.topic}|${r.key}|${Buffer.from(r.value).toString('base64')}`);

describe('feed simulator', () => {
  const sim = new WeatherSimulator({ ...OPTS, forecast: { ...OPTS.forecast, enabled: false } });
  const window = collect(sim, START, START + 2 * HOUR);

  it('is repeatable: the same seed gives byte-identical records', () => {
    const again = collect(new WeatherSimulator({ ...OPTS, forecast: { ...OPTS.forecast, enabled: false } }), START, START + 2 * HOUR);
    assert.deepEqual(fingerprint(again), fingerprint(window));
  });

  it('does not depend on where a run starts: overlapping runs agree', () => {
    const later = collect(new WeatherSimulator({ ...OPTS, forecast: { ...OPTS.forecast, enabled: false } }), START + HOUR, START + 2 * HOUR);
    assert.deepEqual(fingerprint(later), fingerprint(window.filter(({ t }) => t >= START + HOUR)));
  });

  it('gives different weather for a different seed', () => {
    const other = collect(new WeatherSimulator({ ...OPTS, seed: 2, forecast: { ...OPTS.forecast, enabled: false } }), START, START + 2 * HOUR);
    assert.notDeepEqual(fingerprint(other), fingerprint(window));
  });

  it('produces all three observation feeds, every record accepted by ingest validation', () => {
    const byTopic = new Map<string, number>();
    for (const { t, r } of window) {
      byTopic.set(r.topic, (byTopic.get(r.topic) ?? 0) + 1);
      const result = validateFeedMessage(decode(r), t, DEFAULT_RULES);
      assert.ok(result.ok, `${r.key}: ${result.ok ? '' : result.reason}`);
    }
    assert.ok((byTopic.get(TopicNames.FeedPrecipitation) ?? 0) > 50, `precipitation ${byTopic.get(TopicNames.FeedPrecipitation)}`);
    assert.ok((byTopic.get(TopicNames.FeedThunderstorm) ?? 0) > 5, `thunderstorm ${byTopic.get(TopicNames.FeedThunderstorm)}`);
    assert.ok((byTopic.get(TopicNames.FeedLightning) ?? 0) > 100, `lightning ${byTopic.get(TopicNames.FeedLightning)}`);
  });

  it('clusters lightning in the convective cores at realistic rates', () => {
    const strikes = window.filter(({ r }) => r.topic === TopicNames.FeedLightning).map(({ t, r }) => ({ t, m: feedV1.LightningStrike.decode(r.value) }));
    for (const { t, m } of strikes) {
      const systemId = m.sourceEventId.split('-')[1]!;
      const system = sim.systemsAt(t).find((s) => s.id === systemId);
      assert.ok(system && system.kind === 'convective', `${m.sourceEventId} comes from a live convective system`);
      const km = distanceKm({ lng: m.longitude, lat: m.latitude }, stateAt(system, t)!.center);
      assert.ok(km < 60, `${m.sourceEventId} is ${km.toFixed(1)} km from its cell`);
    }
    // Whole region, two hours: tens to a few hundred flashes a minute would be a mega-outbreak.
    const perMinute = strikes.length / 120;
    assert.ok(perMinute > 1 && perMinute < 150, `${perMinute.toFixed(1)} flashes per minute`);
    const cg = strikes.filter((s) => s.m.type === 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND');
    const negative = cg.filter((s) => s.m.peakCurrentAmperes < 0).length / cg.length;
    assert.ok(negative > 0.75, `${(negative * 100).toFixed(0)} % of cloud-to-ground flashes negative`);
  });

  it('tracks each storm cell under one source id with increasing versions', () => {
    const cells = window.filter(({ r }) => r.topic === TopicNames.FeedThunderstorm).map(({ r }) => feedV1.ThunderstormCell.decode(r.value));
    const byId = new Map<string, number[]>();
    for (const c of cells) byId.set(c.sourceEventId, [...(byId.get(c.sourceEventId) ?? []), c.version]);
    for (const [id, versions] of byId) {
      assert.deepEqual(
        versions,
        [...versions].sort((a, b) => a - b),
        id,
      );
      assert.equal(new Set(versions).size, versions.length, `${id} repeats a version`);
    }
    assert.ok(
      [...byId.values()].some((v) => v.length > 3),
      'some cell lives several scans',
    );
  });

  it('moves storms along a continuous track, not in a straight line', () => {
    for (const system of sim.systemsAt(START + HOUR)) {
      const steps: number[] = [];
      for (let t = START; t < START + 2 * HOUR; t += 60_000) {
        const a = stateAt(system, t);
        const b = stateAt(system, t + 60_000);
        if (a && b) steps.push(distanceKm(a.center, b.center));
      }
      // No jumps: a minute never covers more than the fastest the track allows (3 x 60 km/h).
      assert.ok(Math.max(...steps) < 3.01, `${system.id} jumps ${Math.max(...steps).toFixed(2)} km in a minute`);
      // ... and it does not keep one velocity (the demo storm aside, which keeps to its straight line).
      const speeds = steps.slice(0, -5).map((_, i) => velocityAt(system, START + i * 60_000).speedKmh);
      assert.ok(Math.max(...speeds) - Math.min(...speeds) > 1, `${system.id} keeps one speed`);
    }
  });

  it('reports the motion of the last ten minutes, not the velocity ahead', () => {
    let cells = 0;
    let radar = 0;
    let aheadDiffers = 0;
    for (const { t, r } of window) {
      if (r.topic === TopicNames.FeedLightning) continue;
      const message = decode(r);
      const systemId = r.key.split('-')[1]!;
      const system = sim.systemsAt(t).find((s) => s.id === systemId)!;
      const from = Math.max(system.birthMs, t - 10 * 60_000);
      if (t - from < 60_000) continue;
      const seen = motionBetween(
        system,
        from === system.birthMs ? system.origin : stateAt(system, from)!.center,
        stateAt(system, t)!.center,
        (t - from) / HOUR,
      );
      const check = (speed: number, direction: number, what: string) => {
        assert.ok(Math.abs(speed - seen.speedKmh) <= 0.05 + 1e-6, `${what} speed ${speed}, displacement says ${seen.speedKmh}`);
        assert.ok(angleDeg(direction, seen.directionDeg) <= 0.5 + 1e-6, `${what} direction ${direction}, displacement says ${seen.directionDeg}`);
      };
      if (message.feed === 'thunderstorm') {
        const cell = message.message;
        check(cell.cell!.speed, cell.cell!.directionDeg, r.key);
        assert.equal(cell.meta!.speed, cell.cell!.speed);
        // The threat polygon is the cell swept along that motion for an hour: its vertices centre on half the way.
        const ring = cell.threatPolygon!.exterior!.points.slice(0, -1);
        const middle = { lng: ring.reduce((n, p) => n + p.lng, 0) / ring.length, lat: ring.reduce((n, p) => n + p.lat, 0) / ring.length };
        const halfWay = moveKm(stateAt(system, t)!.center, seen.directionDeg, seen.speedKmh / 2);
        assert.ok(distanceKm(middle, halfWay) < 0.5, `${r.key} threat polygon centred ${distanceKm(middle, halfWay).toFixed(2)} km off the reported track`);
        if (angleDeg(cell.cell!.directionDeg, velocityAt(system, t + 30 * 60_000).directionDeg) > 10) aheadDiffers++;
        cells++;
      } else if (message.feed === 'precipitation') {
        const motion = message.message.motion!;
        check(motion.speedKmh, motion.directionDeg, r.key);
        if (!message.message.forecast) radar++;
      }
    }
    assert.ok(cells > 5 && radar > 50, `${cells} cells, ${radar} radar records checked`);
    assert.ok(aheadDiffers > 0, 'the reported motion is the past: somewhere the storm turns after it');
  });

  it('puts nowcast rain where the reported motion takes it, not where the storm will be', () => {
    const t = START + HOUR;
    const nowcasts = collect(sim, t, t + 1)
      .map(({ r }) => r)
      .filter((r) => r.topic === TopicNames.FeedPrecipitation && r.key.endsWith('-nc60') && r.key.includes(`-${INTENSITIES[0]}-`));
    assert.ok(nowcasts.length > 0);
    let offTrack = 0;
    for (const r of nowcasts) {
      const system = sim.systemsAt(t).find((s) => s.id === r.key.split('-')[1])!;
      const motion = observedMotion(system, t);
      // An hour along the reported motion, in the km frame of the system's origin (the frame it moves in).
      const now = stateAt(system, t)!.center;
      const rad = (motion.directionDeg * Math.PI) / 180;
      const perKm = { lng: offsetKm(system.origin, 1, 0).lng - system.origin.lng, lat: offsetKm(system.origin, 0, 1).lat - system.origin.lat };
      const expected = { lng: now.lng + motion.speedKmh * Math.sin(rad) * perKm.lng, lat: now.lat + motion.speedKmh * Math.cos(rad) * perKm.lat };
      const ring = feedV1.PrecipitationObservation.decode(r.value).geometry!.polygons[0]!.exterior!.points;
      // A contour ring has a vertex every 7.5 degrees of bearing from its centre: seen from the right centre, every bearing is a multiple of 7.5.
      const eastPerDeg = 1 / (offsetKm(expected, 1, 0).lng - expected.lng);
      const northPerDeg = 1 / (offsetKm(expected, 0, 1).lat - expected.lat);
      for (const p of ring) {
        const bearing = (Math.atan2((p.lng - expected.lng) * eastPerDeg, (p.lat - expected.lat) * northPerDeg) * 180) / Math.PI;
        assert.ok(angleDeg(bearing, Math.round(bearing / 7.5) * 7.5) < 0.3, `${r.key}: vertex at bearing ${bearing.toFixed(2)} from the extrapolated centre`);
      }
      if (distanceKm(expected, stateAt(system, t + HOUR)!.center) > 1) offTrack++;
    }
    assert.ok(offTrack > 0, 'somewhere the storm leaves the extrapolated track, so the check above can tell');
  });

  it('lists every system alive in a window, for benchmarks', () => {
    const from = START + 10 * 60_000;
    const to = START + HOUR;
    const sampled = new Set<string>();
    for (let t = from + 1; t < to; t += 60_000) for (const s of sim.systemsAt(t)) sampled.add(s.id);
    const listed = sim.systemsBetween(from, to);
    assert.equal(new Set(listed.map((s) => s.id)).size, listed.length, 'each system once');
    for (const id of sampled)
      assert.ok(
        listed.some((s) => s.id === id),
        `${id} missing`,
      );
    // Those the minute samples missed (born or dead between two) are still alive at some instant of the window.
    for (const s of listed) {
      const at = Math.min(Math.max(from, s.birthMs) + 1, to - 1);
      assert.ok(
        sim.systemsAt(at).some((alive) => alive.id === s.id),
        `${s.id} is not alive in the window`,
      );
    }
    assert.ok(listed.length > 3, `${listed.length} systems`);
  });

  it('gives benchmarks, through the package, the very cell outline the feed publishes', async () => {
    const ingest = await import('../index.js');
    const cells = window.filter(({ r }) => r.topic === TopicNames.FeedThunderstorm);
    assert.ok(cells.length > 5);
    for (const { t, r } of cells) {
      const cell = feedV1.ThunderstormCell.decode(r.value);
      const system = sim.systemsAt(t).find((s) => s.id === r.key.split('-')[1])!;
      assert.deepEqual(ingest.cellPolygonAt(system, t)?.exterior.points, cell.cell!.polygon!.exterior!.points, r.key);
      assert.deepEqual(ingest.stateAt(system, t)!.center, ingest.centerAt(system, t));
    }
    // Outside its thunderstorm window a system has no cell outline, however much it rains.
    const early = sim.systemsAt(START).find((s) => s.kind === 'frontal')!;
    assert.equal(ingest.cellPolygonAt(early, START), undefined);
  });

  it('keeps a demo thunderstorm with lightning over its anchor in the dead of winter', () => {
    // A January night: the random storms are frontal and flash-free; the demo storm is not.
    const winter = Date.UTC(2026, 0, 15, 2, 0);
    const demo = new WeatherSimulator({ ...OPTS, demoStorm: ANKARA, forecast: { ...OPTS.forecast, enabled: false } });
    const records = collect(demo, winter, winter + HOUR);
    const strikes = records.filter(({ r }) => r.topic === TopicNames.FeedLightning).map(({ r }) => feedV1.LightningStrike.decode(r.value));
    const near = strikes.filter((m) => distanceKm({ lng: m.longitude, lat: m.latitude }, ANKARA) < 20);
    // At least 6 flashes a minute within 20 km: a 20 km point alarm there fires within a minute.
    assert.ok(near.length >= 360, `${near.length} strikes within 20 km of the anchor in an hour`);
    const cells = records.filter(({ r }) => r.topic === TopicNames.FeedThunderstorm).map(({ r }) => feedV1.ThunderstormCell.decode(r.value));
    assert.ok(
      cells.some((c) => c.sourceEventId.includes('demo')),
      'the demo storm is a tracked thunderstorm cell',
    );
    // Every minute of the hour has a strike near the anchor: never a lull a first start could fall into.
    const minutes = new Set(near.map((m) => Math.floor((m.timeEpochMs - winter) / 60_000)));
    assert.ok(minutes.size >= 58, `strikes in ${minutes.size} of 60 minutes`);
    const without = collect(new WeatherSimulator({ ...OPTS, forecast: { ...OPTS.forecast, enabled: false } }), winter, winter + HOUR);
    assert.ok(!without.some(({ r }) => r.key.includes('demo')), 'no demo storm unless asked for');
  });

  it("sends the approach demo's cells at its target so that, whenever an alarm there registers, one is seen outside it and then inside within 3 minutes", () => {
    const winter = Date.UTC(2026, 0, 15, 2, 0);
    const sim = new WeatherSimulator({ ...OPTS, demoApproach: POLATLI, forecast: { ...OPTS.forecast, enabled: false } });
    const cells = collect(sim, winter, winter + 2 * HOUR + 10 * 60_000)
      .filter(({ r }) => r.topic === TopicNames.FeedThunderstorm)
      .map(({ t, r }) => ({ t, cell: feedV1.ThunderstormCell.decode(r.value) }))
      .filter(({ cell }) => cell.sourceEventId.includes('approach'));
    // Within a 5 km point alarm: some vertex of the outline is (a cell record carries its outline's vertices).
    const inside = (cell: feedV1.ThunderstormCell) => cell.cell!.polygon!.exterior!.points.some((p) => distanceKm({ lng: p.lng, lat: p.lat }, POLATLI) < 5);
    const nearest = (cell: feedV1.ThunderstormCell) =>
      Math.min(...cell.cell!.polygon!.exterior!.points.map((p) => distanceKm({ lng: p.lng, lat: p.lat }, POLATLI)));
    for (let registeredAt = winter + HOUR; registeredAt < winter + 2 * HOUR; registeredAt += 20_000) {
      const after = cells.filter(({ t }) => t > registeredAt && t <= registeredAt + 3 * 60_000);
      const arrived = after.find(({ t, cell }) => inside(cell) && after.some((o) => o.cell.sourceEventId === cell.sourceEventId && o.t < t && !inside(o.cell)));
      assert.ok(arrived, `a cell seen outside and then inside within 3 minutes of ${new Date(registeredAt).toISOString()}`);
    }
    const first = cells.find(({ t }) => t >= winter + HOUR)!;
    assert.equal(first.cell.cell!.speed, 60);
    assert.equal(first.cell.cell!.directionDeg, 90, 'heading east, straight at the target');
    assert.ok(nearest(first.cell) < 20, 'on the line through the target');
    assert.ok(
      cells.some(({ cell }) => cell.version > 10),
      'scanned every minute',
    );
  });
});
