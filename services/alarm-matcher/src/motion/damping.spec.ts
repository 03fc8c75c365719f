import assert from 'node:assert/strict';
import { direct as geodesicDirect, type Position } from '@stormhook/geometry';
import { dampedVelocity, EXCURSION_KEPT, MIN_FLOW_WEIGHT, PRIOR_REVISIONS } from './damping.js';
import { headingOf, velocityOf, type Velocity } from './motion.js';
import { RAIN_FLOW, STORM_FLOW } from './project-revision.js';
import { RegionalFlow } from './regional-flow.js';
import { feedVelocity, resolveMotion } from './resolve-motion.js';
import { TrackMemory } from './track-memory.js';

const CENTRE: Position = [32.85, 39.93];
const T0 = Date.UTC(2026, 6, 1, 12);
const SCAN = 300_000;

function v(speedKmh: number, towardDeg: number): Velocity {
  return velocityOf({ speedKmh, towardDeg });
}

function near(actual: number, expected: number, tolerance: number, what: string): void {
  assert.ok(Math.abs(actual - expected) <= tolerance, `${what}: ${actual} (expected ${expected} ± ${tolerance})`);
}

describe('motion damping', () => {
  it('projects a cell caught in a spurt at its mean plus half its excursion', () => {
    // Its own mean 30 km/h east over 4 vectors; now 60 km/h east; no regional flow.
    const damped = headingOf(dampedVelocity(v(60, 90), { velocity: v(30, 90), count: 4 }, undefined));
    near(damped.speedKmh, 30 + EXCURSION_KEPT * 30, 1e-9, 'speed');
    near(damped.towardDeg, 90, 1e-9, 'direction');
  });

  it('lets a young track lean on the regional flow, and a long one outweigh it', () => {
    const flow = { velocity: v(30, 0), weight: 50 };
    // One vector of its own, eastwards: the mean is mostly the northward flow.
    const young = dampedVelocity(v(30, 90), { velocity: v(30, 90), count: 1 }, flow);
    const meanShare = (1 - EXCURSION_KEPT) / (1 + PRIOR_REVISIONS);
    near(young.eastKmPerMin, 0.5 * (EXCURSION_KEPT + meanShare), 1e-9, 'east of a young track');
    near(young.northKmPerMin, 0.5 * (1 - EXCURSION_KEPT) * (PRIOR_REVISIONS / (1 + PRIOR_REVISIONS)), 1e-9, 'north of a young track');
    // A hundred vectors of its own: the flow hardly moves it.
    const old = headingOf(dampedVelocity(v(30, 90), { velocity: v(30, 90), count: 100 }, flow));
    assert.ok(old.towardDeg > 85, `old track heads ${old.towardDeg}`);
  });

  it('ignores a regional flow resting on too few revisions, and passes the vector through with nothing to damp towards', () => {
    const thin = dampedVelocity(v(30, 90), { velocity: v(30, 90), count: 1 }, { velocity: v(30, 0), weight: MIN_FLOW_WEIGHT - 1 });
    near(headingOf(thin).towardDeg, 90, 1e-9, 'direction with a thin flow');
    assert.deepEqual(dampedVelocity(v(40, 10), undefined, undefined), v(40, 10));
  });
});

describe('regional flow', () => {
  it('averages the vectors it is given, fading the older ones whatever order they arrive in', () => {
    const flow = new RegionalFlow(3_600_000);
    assert.equal(flow.mean(), undefined);
    flow.add(T0, v(60, 90));
    flow.add(T0 + 3_600_000, v(30, 90));
    // The first one, an hour older, weighs e^-1 of the second.
    const w = Math.exp(-1);
    near(headingOf(flow.mean()!.velocity).speedKmh, (60 * w + 30) / (w + 1), 1e-6, 'speed');
    near(flow.mean()!.weight, 1 + w, 1e-9, 'weight');
    const late = new RegionalFlow(3_600_000);
    late.add(T0 + 3_600_000, v(30, 90));
    late.add(T0, v(60, 90)); // delivered after the newer one
    near(headingOf(late.mean()!.velocity).speedKmh, headingOf(flow.mean()!.velocity).speedKmh, 1e-9, 'order does not matter');
  });
});

describe('track memory: own mean, regional flow and vitals', () => {
  it('averages the feed vectors of the whole track, counting a replay once', () => {
    const tracks = new TrackMemory({ maxFixes: 2, fitWindowMs: 1_800_000, maxEvents: 10 });
    [20, 40, 60].forEach((speed, i) => tracks.observe('tst_a', T0 + i * SCAN, CENTRE, { feed: v(speed, 90) }));
    tracks.observe('tst_a', T0 + 2 * SCAN, CENTRE, { feed: v(600, 90) }); // a replay
    const own = tracks.ownMean('tst_a')!;
    assert.equal(own.count, 3, 'beyond the two positions held');
    near(headingOf(own.velocity).speedKmh, 40, 1e-9, 'mean speed');
  });

  it('keeps the flows of cells and rain apart, and of tiles far apart', () => {
    const tracks = new TrackMemory();
    const far: Position = [CENTRE[0] + 10, CENTRE[1]];
    for (let i = 0; i < 12; i++) {
      tracks.observe(`tst_s${i}`, T0, CENTRE, { feed: v(30, 0), flow: STORM_FLOW });
      tracks.observe(`tst_r${i}`, T0, CENTRE, { feed: v(50, 180), flow: RAIN_FLOW });
    }
    near(headingOf(tracks.flow(STORM_FLOW, CENTRE)!.velocity).towardDeg, 0, 1e-9, 'cells');
    near(headingOf(tracks.flow(RAIN_FLOW, CENTRE)!.velocity).towardDeg, 180, 1e-9, 'rain');
    assert.equal(tracks.flow(STORM_FLOW, far), undefined);
  });

  it('damps a young cell towards the flow of the cells around it, through resolveMotion', () => {
    const tracks = new TrackMemory();
    for (let i = 0; i < 20; i++)
      tracks.observe(`tst_o${i}`, T0, geodesicDirect(CENTRE[0], CENTRE[1], Math.PI, i * 1_000), { feed: v(30, 0), flow: STORM_FLOW });
    const feed = { speedKmh: 30, directionDeg: 90 };
    tracks.observe('tst_new', T0 + SCAN, CENTRE, { feed: feedVelocity(feed)!, flow: STORM_FLOW });
    const motion = resolveMotion('tst_new', feed, tracks, STORM_FLOW)!;
    assert.equal(motion.source, 'FEED');
    assert.ok(motion.towardDeg > 10 && motion.towardDeg < 80, `between its own vector and the flow: ${motion.towardDeg}`);
    // Without a flow named, the same cell keeps its own vector (its only one).
    near(resolveMotion('tst_new', feed, tracks)!.towardDeg, 90, 1e-9, 'no flow asked');
  });

  it('holds the vitals of the positions it keeps', () => {
    const tracks = new TrackMemory({ maxFixes: 3, fitWindowMs: 1_800_000, maxEvents: 10 });
    [9, 8, 7, 6].forEach((rate, i) => tracks.observe('tst_v', T0 + i * SCAN, CENTRE, { vitals: { flashesPerMin: rate, areaKm2: 100 } }));
    assert.deepEqual(
      tracks.vitals('tst_v').map((x) => x.flashesPerMin),
      [8, 7, 6],
    );
  });
});
