import assert from 'node:assert/strict';
import { bboxOfMultiPolygon, direct as geodesicDirect, type MultiPolygon, type Position } from '@stormhook/geometry';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import { crossing, pointArrival } from './crossing.js';
import { headingOf, velocityOf, type Motion } from './motion.js';
import { MovingShape } from './moving-shape.js';
import { confidenceOf, EventProjection, HORIZON_MIN } from './projection.js';
import { resolveMotion } from './resolve-motion.js';
import { TrackMemory } from './track-memory.js';

const CENTRE: Position = [32.85, 39.93];

/** The point `metres` from `from` towards `bearingDeg` (clockwise from north). */
function direct(from: Position, bearingDeg: number, metres: number): Position {
  return geodesicDirect(from[0], from[1], (bearingDeg * Math.PI) / 180, metres);
}

/** A square of `sideKm` centred `eastKm` east of CENTRE (negative: west). */
function square(eastKm: number, sideKm: number): MultiPolygon {
  const c = direct(CENTRE, eastKm >= 0 ? 90 : 270, Math.abs(eastKm) * 1_000);
  const corner = (dx: number, dy: number): Position => {
    const x = direct(c, dx >= 0 ? 90 : 270, Math.abs(dx) * 1_000);
    return direct(x, dy >= 0 ? 0 : 180, Math.abs(dy) * 1_000);
  };
  const h = sideKm / 2;
  return [{ exterior: [corner(-h, -h), corner(h, -h), corner(h, h), corner(-h, h), corner(-h, -h)], holes: [] }];
}

function motion(speedKmh: number, towardDeg: number, extra: Partial<Motion> = {}): Motion {
  return { speedKmh, towardDeg, source: 'FEED', trackAgeMin: 20, trackPoints: 5, quality: 0.9, ...extra };
}

describe('storm motion and projection', () => {
  it('converts between speed/direction (towards, clockwise from north) and velocity', () => {
    const v = velocityOf({ speedKmh: 60, towardDeg: 90 });
    assert.ok(Math.abs(v.eastKmPerMin - 1) < 1e-9 && Math.abs(v.northKmPerMin) < 1e-9);
    const back = headingOf(velocityOf({ speedKmh: 36, towardDeg: 225 }));
    assert.ok(Math.abs(back.speedKmh - 36) < 1e-9);
    assert.ok(Math.abs(back.towardDeg - 225) < 1e-9);
  });

  it('predicts entry and exit of a polygon crossing a point alarm (leading and trailing edge, not the centroid)', () => {
    // A 10 km square 30 km west of a 5 km circle, moving east at 60 km/h (1 km/min): its leading edge
    // (25 km west) meets the circle's rim (5 km west) after 20 km, its trailing edge leaves the far rim after 40 km.
    const polygon = square(-30, 10);
    const moving = new MovingShape(polygon, bboxOfMultiPolygon(polygon), velocityOf({ speedKmh: 60, towardDeg: 90 }));
    const circle = new PreparedCircle(CENTRE, 5_000);
    const found = crossing(circle, moving, 0, HORIZON_MIN);
    assert.ok(found);
    assert.ok(Math.abs(found.entryMin - 20) < 0.3, `entry ${found.entryMin}`);
    assert.ok(found.exitMin !== undefined && Math.abs(found.exitMin - 40) < 0.3, `exit ${found.exitMin}`);
    assert.equal(found.touchingAtStart, false);
  });

  it('solves a disc crossing to the same entry and exit as sampling finds, for polygons of any shape and heading', () => {
    let crossings = 0;
    for (let i = 0; i < 300; i++) {
      const r = (n: number) => (((Math.sin(i * 12.9898 + n * 78.233) * 43758.5453) % 1) + 1) % 1;
      const polygon = square(-10 - r(1) * 40, 2 + r(2) * 15);
      const velocity = velocityOf({ speedKmh: 10 + r(3) * 70, towardDeg: 60 + r(4) * 60 });
      const moving = new MovingShape(polygon, bboxOfMultiPolygon(polygon), velocity);
      const circle = new PreparedCircle(CENTRE, 1_000 + r(5) * 9_000);
      // The same disc hidden behind a plain Area: crossing() then samples it minute by minute.
      const sampled = crossing({ bbox: circle.bbox, intersects: (p, b) => circle.intersects(p, b) }, moving, -60, 60);
      const solved = crossing(circle, moving, -60, 60);
      assert.equal(solved === undefined, sampled === undefined, `case ${i}`);
      if (!solved || !sampled) continue;
      crossings++;
      assert.ok(Math.abs(solved.entryMin - sampled.entryMin) < 0.2, `case ${i}: entry ${solved.entryMin} vs ${sampled.entryMin}`);
      assert.equal(solved.exitMin === undefined, sampled.exitMin === undefined, `case ${i}: exit ${solved.exitMin} vs ${sampled.exitMin}`);
      if (solved.exitMin !== undefined) assert.ok(Math.abs(solved.exitMin - sampled.exitMin!) < 0.2, `case ${i}: exit ${solved.exitMin} vs ${sampled.exitMin}`);
    }
    assert.ok(crossings > 50, `${crossings} crossings compared`);
  });

  it('finds no crossing for a polygon moving away, or passing beside the area', () => {
    const polygon = square(-30, 10);
    const box = bboxOfMultiPolygon(polygon);
    const circle = new PreparedCircle(CENTRE, 5_000);
    assert.equal(crossing(circle, new MovingShape(polygon, box, velocityOf({ speedKmh: 60, towardDeg: 270 })), 0, 60), undefined);
    assert.equal(crossing(circle, new MovingShape(polygon, box, velocityOf({ speedKmh: 60, towardDeg: 0 })), 0, 60), undefined);
  });

  it('reconstructs an entry in the past for a polygon already over the area, and says when it stays beyond the horizon', () => {
    // Centred on the circle, moving east at 6 km/h: entered ~100 min ago (beyond the look-back), leaves in ~100 min.
    const polygon = square(0, 20);
    const moving = new MovingShape(polygon, bboxOfMultiPolygon(polygon), velocityOf({ speedKmh: 6, towardDeg: 90 }));
    const found = crossing(new PreparedCircle(CENTRE, 5_000), moving, -60, 60);
    assert.ok(found);
    assert.equal(found.touchingAtStart, true);
    assert.equal(found.entryMin, -60);
    assert.equal(found.exitMin, undefined);
  });

  it('predicts when rain reaches a point', () => {
    const polygon = square(-30, 10);
    const moving = new MovingShape(polygon, bboxOfMultiPolygon(polygon), velocityOf({ speedKmh: 60, towardDeg: 90 }));
    const minutes = pointArrival(CENTRE, moving, 0, 60);
    assert.ok(minutes !== undefined && Math.abs(minutes - 25) < 0.3, `arrival ${minutes}`);
    assert.equal(pointArrival([CENTRE[0], CENTRE[1] + 0.5], moving, 0, 60), undefined);
  });

  it('builds an eta whose window grows with lead time and contains the arrival', () => {
    const observed = Date.UTC(2026, 6, 1, 12);
    const near = new EventProjection(observed, square(-15, 10), bboxOfMultiPolygon(square(-15, 10)), motion(60, 90));
    const far = new EventProjection(observed, square(-45, 10), bboxOfMultiPolygon(square(-45, 10)), motion(60, 90));
    const circle = new PreparedCircle(CENTRE, 5_000);
    const a = near.etaFor('c', circle, false)!;
    const b = far.etaFor('c', circle, false)!;
    assert.ok(Math.abs(a.leadMinutes - 5) < 0.3 && Math.abs(b.leadMinutes - 35) < 0.3, `${a.leadMinutes} ${b.leadMinutes}`);
    for (const eta of [a, b]) {
      assert.ok(eta.arrivalEarliestEpochMillis <= eta.arrivalEpochMillis && eta.arrivalEpochMillis <= eta.arrivalLatestEpochMillis);
      assert.ok(eta.arrivalEarliestEpochMillis >= observed);
      assert.equal(eta.motion?.towardDeg, 90);
      assert.equal(eta.motion?.fromDeg, 270);
    }
    const width = (e: typeof a): number => e.arrivalLatestEpochMillis - e.arrivalEarliestEpochMillis;
    assert.ok(width(b) > width(a), `window at 35 min ${width(b)} ms, at 5 min ${width(a)} ms`);
    assert.equal(a.confidence, 'HIGH');
    assert.equal(b.confidence, 'MEDIUM');
  });

  it('rates confidence from the track and the lead', () => {
    assert.equal(confidenceOf(undefined, 5), 'LOW');
    assert.equal(confidenceOf(motion(30, 0, { quality: 0.3 }), 5), 'LOW');
    assert.equal(confidenceOf(motion(30, 0), 50), 'LOW');
    assert.equal(confidenceOf(motion(30, 0, { trackAgeMin: 5 }), 10), 'MEDIUM');
    assert.equal(confidenceOf(motion(30, 0), 10), 'HIGH');
  });
});

describe('track memory', () => {
  it('estimates a steady motion from successive positions, with a high quality', () => {
    const tracks = new TrackMemory();
    const t0 = Date.UTC(2026, 6, 1, 12);
    // 40 km/h towards 60°: every 5 minutes 3.33 km further.
    for (let i = 0; i < 6; i++) tracks.observe('tst_a', t0 + i * 300_000, direct(CENTRE, 60, (i * 40_000) / 12));
    const estimate = tracks.estimate('tst_a');
    assert.ok(estimate);
    assert.ok(Math.abs(estimate.speedKmh - 40) < 0.5, `speed ${estimate.speedKmh}`);
    assert.ok(Math.abs(estimate.towardDeg - 60) < 1, `direction ${estimate.towardDeg}`);
    assert.equal(estimate.trackPoints, 6);
    assert.equal(estimate.trackAgeMin, 25);
    assert.ok(estimate.quality > 0.9, `quality ${estimate.quality}`);
  });

  it('rates a scattered track lower, and ignores replays and older positions', () => {
    const tracks = new TrackMemory();
    const t0 = Date.UTC(2026, 6, 1, 12);
    const offsets = [0, 6, 1, 7, 2, 8];
    offsets.forEach((north, i) => tracks.observe('tst_b', t0 + i * 300_000, direct(direct(CENTRE, 90, i * 3_000), 0, north * 1_000)));
    tracks.observe('tst_b', t0, CENTRE); // a replay of the first
    assert.equal(tracks.extent('tst_b').trackPoints, 6);
    assert.ok(tracks.estimate('tst_b')!.quality < 0.5);
  });

  it('prefers a plausible feed vector, falls back to the track, and has none for a first sighting without one', () => {
    const tracks = new TrackMemory();
    const t0 = Date.UTC(2026, 6, 1, 12);
    assert.equal(resolveMotion('tst_c', undefined, tracks), undefined);
    tracks.observe('tst_c', t0, CENTRE);
    assert.equal(resolveMotion('tst_c', { speedKmh: 0, directionDeg: 0 }, tracks), undefined);
    assert.equal(resolveMotion('tst_c', { speedKmh: 30, directionDeg: 450 }, tracks)?.towardDeg, 90);
    assert.equal(resolveMotion('tst_c', { speedKmh: 900, directionDeg: 90 }, tracks), undefined, 'implausible speed refused');
    tracks.observe('tst_c', t0 + 600_000, direct(CENTRE, 180, 5_000));
    const tracked = resolveMotion('tst_c', undefined, tracks);
    assert.equal(tracked?.source, 'TRACK');
    assert.ok(Math.abs(tracked.speedKmh - 30) < 0.5 && Math.abs(tracked.towardDeg - 180) < 1);
  });

  it('forgets the least recently updated events beyond its bound', () => {
    const tracks = new TrackMemory({ maxFixes: 4, fitWindowMs: 1_800_000, maxEvents: 2 });
    tracks.observe('a', 1, CENTRE);
    tracks.observe('b', 1, CENTRE);
    tracks.observe('a', 2, CENTRE);
    tracks.observe('c', 1, CENTRE);
    assert.equal(tracks.size, 2);
    assert.equal(tracks.extent('b').trackPoints, 0);
    assert.equal(tracks.extent('a').trackPoints, 2);
  });
});
