import assert from 'node:assert/strict';
import { distanceKm, moveKm } from './geo-math.js';
import { extrapolatedCenter, KNOT_MS, MOTION_NOISE, MOTION_TAU_MS, observedMotion, velocityAt } from './motion.js';
import { ANKARA, DEFAULT_SIM_OPTIONS, type SimOptions } from './options.js';
import { DEMO_LIFE_MS, demoSystem, stateAt, systemsBornIn, type StormKind, type StormSystem } from './storms.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;
/** July: both kinds are born in numbers. */
const FIRST_HOUR = Math.floor(Date.UTC(2025, 6, 1) / HOUR);

function population(opts: Partial<SimOptions> = {}, hours = 300): StormSystem[] {
  const all = { ...DEFAULT_SIM_OPTIONS, storms: 40, ...opts };
  return Array.from({ length: hours }, (_, i) => systemsBornIn(FIRST_HOUR + i, all)).flat();
}

const wrapDeg = (d: number) => ((((d + 180) % 360) + 360) % 360) - 180;
const sd = (xs: readonly number[]) => Math.sqrt(xs.reduce((n, x) => n + x * x, 0) / xs.length);
const mean = (xs: readonly number[]) => xs.reduce((n, x) => n + x, 0) / xs.length;
const withoutTrack = ({ track: _track, ...rest }: StormSystem) => rest;

/** Every scan time (epoch-aligned, as the feed's) from ten minutes after birth to an hour before death. */
function scans(system: StormSystem, leadMs: number): number[] {
  const out: number[] = [];
  const scan = DEFAULT_SIM_OPTIONS.scanMs;
  for (let t = Math.ceil((system.birthMs + 10 * MINUTE) / scan) * scan; t + leadMs < system.birthMs + system.lifeMs; t += scan) out.push(t);
  return out;
}

/** Mean miss of the feed's reported motion extrapolated linearly `leadMs` ahead, against the true centre. */
function extrapolationErrorKm(systems: readonly StormSystem[], leadMs: number): number {
  const errors: number[] = [];
  for (const system of systems) {
    for (const t of scans(system, leadMs)) {
      const motion = observedMotion(system, t);
      const predicted = moveKm(stateAt(system, t)!.center, motion.directionDeg, (motion.speedKmh * leadMs) / HOUR);
      errors.push(distanceKm(predicted, stateAt(system, t + leadMs)!.center));
    }
  }
  return mean(errors);
}

describe('storm motion', () => {
  const noisy = population();
  const straight = population({ motionNoise: 0 });
  const ofKind = (systems: readonly StormSystem[], kind: StormKind) => systems.filter((s) => s.kind === kind);

  it('draws the same track from the same seed and another from another seed', () => {
    const again = population({}, 20);
    assert.deepEqual(again, noisy.slice(0, again.length));
    const other = population({ seed: 2 }, 20);
    assert.notDeepEqual(
      other.map((s) => s.track),
      noisy.slice(0, other.length).map((s) => s.track),
    );
    assert.ok(
      noisy.every((s) => s.track !== undefined),
      'every random system has a track',
    );
  });

  it('leaves every other draw of a system as it was without noise', () => {
    assert.equal(straight.length, noisy.length);
    assert.deepEqual(noisy.map(withoutTrack), straight);
    assert.ok(straight.every((s) => s.track === undefined));
  });

  it('moves straight at constant speed without noise, exactly where it always did', () => {
    for (const system of straight.slice(0, 200)) {
      for (let t = system.birthMs + 1; t < system.birthMs + system.lifeMs; t += 7 * MINUTE) {
        const hours = (t - system.birthMs) / HOUR;
        assert.deepEqual(stateAt(system, t)!.center, moveKm(system.origin, system.directionDeg, system.speedKmh * hours));
        // ... and so does a nowcast an hour ahead, byte for byte what it was before tracks existed.
        if (t + HOUR < system.birthMs + system.lifeMs) assert.deepEqual(extrapolatedCenter(system, t, HOUR), stateAt(system, t + HOUR)!.center);
        const seen = observedMotion(system, t);
        assert.ok(Math.abs(seen.speedKmh - system.speedKmh) < 1e-9 && Math.abs(wrapDeg(seen.directionDeg - system.directionDeg)) < 1e-9);
      }
    }
    // Not zero: moveKm from the later centre scales east-west by that latitude, not the origin's.
    const straightMiss = extrapolationErrorKm(straight, HOUR);
    assert.ok(straightMiss < 0.5, `a straight storm is where the extrapolation says, within ${straightMiss.toFixed(3)} km`);
  });

  for (const kind of ['convective', 'frontal'] as const) {
    it(`turns and changes speed by the sizes of motion.ts (${kind})`, () => {
      const sigma = MOTION_NOISE[kind].sd;
      const offsets: number[] = [];
      const turns: number[] = [];
      const logSpeeds: number[] = [];
      for (const system of ofKind(noisy, kind)) {
        for (let t = system.birthMs; t + 30 * MINUTE < system.birthMs + system.lifeMs; t += KNOT_MS) {
          const v = velocityAt(system, t);
          offsets.push(wrapDeg(v.directionDeg - system.directionDeg));
          turns.push(wrapDeg(velocityAt(system, t + 30 * MINUTE).directionDeg - v.directionDeg));
          logSpeeds.push(Math.log(v.speedKmh / system.speedKmh));
        }
      }
      const sigmaDeg = (sigma * 180) / Math.PI;
      const turn30Deg = sigmaDeg * Math.sqrt(2 * (1 - Math.exp(-(30 * MINUTE) / MOTION_TAU_MS)));
      const near = (measured: number, intended: number, what: string) =>
        assert.ok(Math.abs(measured / intended - 1) < 0.1, `${what}: measured ${measured.toFixed(3)}, intended ${intended.toFixed(3)}`);
      assert.ok(offsets.length > 5_000, `${offsets.length} samples`);
      near(sd(offsets), sigmaDeg, 'heading sd (deg)');
      near(sd(turns), turn30Deg, 'heading change over 30 min, sd (deg)');
      // The speed limits of motion.ts trim the tails, by less than a tenth of the spread.
      assert.ok(sd(logSpeeds) > 0.88 * sigma && sd(logSpeeds) <= sigma, `log speed sd: measured ${sd(logSpeeds).toFixed(3)}, drawn ${sigma}`);
      assert.ok(Math.abs(mean(offsets)) < 1.5, `no turning bias: ${mean(offsets).toFixed(2)} deg`);
    });
  }

  it('misses by the published errors when the reported motion is extrapolated for an hour', () => {
    // Ebert et al. 2004: cell trackers 15-30 km at 1 h (the design aims at the middle), area trackers about 20 km.
    const convective = extrapolationErrorKm(ofKind(noisy, 'convective'), HOUR);
    const frontal = extrapolationErrorKm(ofKind(noisy, 'frontal'), HOUR);
    assert.ok(convective > 15 && convective < 30, `convective ${convective.toFixed(1)} km`);
    assert.ok(Math.abs(convective - 22.5) < 2.5, `convective ${convective.toFixed(1)} km, designed for 22.5`);
    assert.ok(Math.abs(frontal - 20) < 2.5, `frontal ${frontal.toFixed(1)} km, designed for 20`);
    const half = extrapolationErrorKm(ofKind(population({ motionNoise: 0.5 }), 'convective'), HOUR);
    assert.ok(half > 0.35 * convective && half < 0.65 * convective, `half the noise: ${half.toFixed(1)} km`);
  });

  it('never moves the demo storm off its straight path over the anchor', () => {
    for (let hour = FIRST_HOUR; hour < FIRST_HOUR + 24; hour++) {
      const demo = demoSystem(hour, { ...DEFAULT_SIM_OPTIONS, demoStorm: ANKARA, motionNoise: 3 })!;
      assert.equal(demo.track, undefined);
      for (let t = demo.birthMs + 1; t < demo.birthMs + DEMO_LIFE_MS; t += 5 * MINUTE) {
        const km = distanceKm(stateAt(demo, t)!.center, ANKARA);
        // 10 km by construction; the margin is the difference of two flat-earth approximations.
        assert.ok(km < 10.05, `${demo.id} ${km.toFixed(2)} km from the anchor`);
      }
    }
  });
});
