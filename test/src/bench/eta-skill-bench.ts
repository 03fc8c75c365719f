/**
 * Arrival-skill benchmark (issue 29, item 5): how well the alarm-matcher's storm-arrival predictor
 * foresees when a thunderstorm cell enters a customer's area, judged against the feed simulator's
 * truth. No Kafka, no database: one process drives the predictor the live matcher runs.
 *
 * The weather: the simulator (`@stormhook/ingest`) with its default motion noise, `storms` systems
 * alive at once over Turkey's box for `hours` simulated hours of July (convection dominates). Every
 * thunderstorm cell that forms in that time is followed through its whole life.
 *
 * The areas: point alarms of 3-10 km radius, some uniform over the box and some uniform in a disc
 * of 80 km around each cell's origin (drawn from the birth alone, in every direction alike, so that
 * enough of them are crossed without the areas knowing where the storm will go), and a third of the
 * districts of the shared boundary files when they are there.
 *
 * Every scan (5 min) of every cell goes through what the matcher does with a cell record: the
 * matcher's own projectStorm (motion/project-revision.ts: the track, the record's vector, the
 * record's polygon at the scan). For every area in the projected path's box that
 * the cell has not touched at any scan so far, the prediction (entryAhead, etaFor) is recorded; the
 * truth is the first moment at or after the issue at which the simulator's cell polygon
 * (cellPolygonAt, the very polygon the records carry) touches the area, sampled every minute and
 * refined to 7.5 s, up to the end of the cell's life. The APPROACHING lifecycle (lead 30 min) is run
 * per cell and area as decideRevision runs it. The scoring and its definitions: eta-skill.ts.
 *
 *   node test/dist/bench/eta-skill-bench.js               judges on the evaluation seed
 *   node test/dist/bench/eta-skill-bench.js --calibrate   measures ETA_CALIBRATION on the calibration seed
 *     [--hours 48] [--storms 60] [--seed N]
 *
 * `--seed` runs another seed: the development seed while tuning (DEVELOPMENT_SEED), or a fresh one
 * to check that a figure is not one seed's luck. Its run is judged like the evaluation run.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ETA_CALIBRATION, Grid, HORIZON_MIN, PreparedCircle, PreparedPolygon, projectStorm, TrackMemory } from '@stormhook/alarm-matcher';
import { findRepoRoot } from '@stormhook/config';
import { bboxOfMultiPolygon, type BBox, type MultiPolygon, type Position } from '@stormhook/geometry';
import { seeded } from '@stormhook/geometry/testing';
import {
  cellPolygonAt,
  cellRecord,
  cellWindow,
  centerAt,
  DEFAULT_SIM_OPTIONS,
  stateAt,
  TURKEY,
  WeatherSimulator,
  type SimOptions,
  type StormSystem,
} from '@stormhook/ingest';
import { machineDescription, reportBench } from '@stormhook/testing';
import {
  approachSkill,
  approachStep,
  calibrationSource,
  contactsFromSamples,
  entryAfter,
  LEAD_BUCKETS,
  leadMetrics,
  measureSpread,
  newApproachState,
  type ApproachPair,
  type ApproachState,
  type Contact,
  type LeadMetrics,
  type Prediction,
  WINDOW_QUANTILES,
} from './eta-skill.js';

/**
 * The seeds. ETA_CALIBRATION is measured on CALIBRATION_SEED; the windows are judged on
 * EVALUATION_SEED, which nothing else uses: `grep -rn "seed" --include=*.ts services packages test`
 * (2026-11-27) finds the simulator run on seeds 1 (the default, on which motion.spec.ts sized the motion
 * noise), 2, 7 and 11 in tests, and neither 2901 nor 2905 anywhere but here.
 */
const CALIBRATION_SEED = 2901;
const EVALUATION_SEED = 2905;
/**
 * Tuning the predictor (damping, decay hold-back) looked only at the calibration seed and this one,
 * never at the evaluation seed; 2913 was kept unused for a second, fresh judgement (grep 2026-11-28:
 * neither 2907 nor 2913 was used anywhere).
 */
export const DEVELOPMENT_SEED = 2907;
/** Both runs start on 15 July 2025, 00:00 UTC (convection season; each run has its afternoon peak). */
const START_MS = Date.UTC(2025, 6, 15);

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** The lead of the APPROACHING judged here, and how long after its issue an entry still verifies it. */
const APPROACH_LEAD_MIN = 30;
const APPROACH_VERIFY_MIN = APPROACH_LEAD_MIN + 15;
/** Truth edges are halved this often inside a minute: 7.5 s. */
const TRUTH_REFINE = 3;

const { values } = parseArgs({
  options: { calibrate: { type: 'boolean' }, hours: { type: 'string' }, storms: { type: 'string' }, seed: { type: 'string' } },
});
const calibrating = values.calibrate === true;
if (calibrating && values.seed !== undefined) throw new Error('--calibrate always runs the calibration seed; drop --seed');
const seed = values.seed !== undefined ? Number(values.seed) : calibrating ? CALIBRATION_SEED : EVALUATION_SEED;
if (!Number.isInteger(seed)) throw new Error('--seed must be an integer');
const hours = Number(values.hours ?? 48);
const storms = Number(values.storms ?? 60);
if (!(hours > 0 && storms > 0)) throw new Error('--hours and --storms must be positive numbers');

const opts: SimOptions = { ...DEFAULT_SIM_OPTIONS, seed, storms, forecast: { ...DEFAULT_SIM_OPTIONS.forecast, enabled: false } };
const END_MS = START_MS + hours * HOUR;

// ---------------------------------------------------------------------------------------------- areas

interface SkillArea {
  key: string;
  kind: 'point' | 'near-origin' | 'district';
  shape: PreparedCircle | PreparedPolygon;
}

/** Areas filed by 0.25° cell: which may a box touch. */
class AreaIndex {
  private static readonly CELL_DEG = 0.25;
  private readonly cells = new Map<string, number[]>();
  private readonly stamps: number[] = [];
  private stamp = 0;

  constructor(readonly areas: readonly SkillArea[]) {
    areas.forEach((area, i) => {
      this.stamps.push(0);
      for (const cell of AreaIndex.cellsOf(area.shape.bbox)) {
        const list = this.cells.get(cell);
        if (list) list.push(i);
        else this.cells.set(cell, [i]);
      }
    });
  }

  private static cellsOf(box: BBox): string[] {
    const size = AreaIndex.CELL_DEG;
    const out: string[] = [];
    for (let x = Math.floor(box.minLng / size); x <= Math.floor(box.maxLng / size); x++)
      for (let y = Math.floor(box.minLat / size); y <= Math.floor(box.maxLat / size); y++) out.push(`${x}:${y}`);
    return out;
  }

  /** Indices of the areas whose box overlaps `box`, each once. */
  within(box: BBox): number[] {
    const stamp = ++this.stamp;
    const out: number[] = [];
    for (const cell of AreaIndex.cellsOf(box)) {
      for (const i of this.cells.get(cell) ?? []) {
        if (this.stamps[i] === stamp) continue;
        this.stamps[i] = stamp;
        const b = this.areas[i]!.shape.bbox;
        if (b.minLng <= box.maxLng && b.maxLng >= box.minLng && b.minLat <= box.maxLat && b.maxLat >= box.minLat) out.push(i);
      }
    }
    return out;
  }
}

/** A point `km` east and north of `at` (flat; a few tens of km). */
function offset(at: Position, eastKm: number, northKm: number): Position {
  return [at[0] + eastKm / (111.32 * Math.cos((at[1] * Math.PI) / 180)), at[1] + northKm / 110.574];
}

function distanceKm(a: Position, b: Position): number {
  const x = (b[0] - a[0]) * 111.32 * Math.cos((((a[1] + b[1]) / 2) * Math.PI) / 180);
  return Math.hypot(x, (b[1] - a[1]) * 110.574);
}

function loadDistricts(): MultiPolygon[] {
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
  const dir = process.env['STORMHOOK_GEO_SOURCE'] ?? (root === undefined ? undefined : join(root, '..', 'shared', 'data', 'geo'));
  const file = dir === undefined ? undefined : join(dir, 'tur_adm2_districts.geojson');
  if (!file || !existsSync(file)) return [];
  type Feature = { geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] } };
  const collection = JSON.parse(readFileSync(file, 'utf8')) as { features: Feature[] };
  return collection.features.map((feature) => {
    const polygons = (feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates) as number[][][][];
    return polygons.map((rings) => ({
      exterior: rings[0]!.map(([x, y]): Position => [x!, y!]),
      holes: rings.slice(1).map((ring) => ring.map(([x, y]): Position => [x!, y!])),
    }));
  });
}

/** Point alarms (uniform over the box, and around each cell's origin) and a third of the districts. */
function placeAreas(cells: readonly StormSystem[]): { areas: SkillArea[]; districtSource: string } {
  const random = seeded(seed);
  const radiusM = (): number => 3_000 + Math.round(random() * 7_000);
  const areas: SkillArea[] = [];
  for (let i = 0; i < 3_000; i++) {
    const at: Position = [TURKEY.minLng + random() * (TURKEY.maxLng - TURKEY.minLng), TURKEY.minLat + random() * (TURKEY.maxLat - TURKEY.minLat)];
    areas.push({ key: `point:${i}`, kind: 'point', shape: new PreparedCircle(at, radiusM()) });
  }
  for (const system of cells) {
    for (let i = 0; i < 8; i++) {
      // Uniform in the disc: the radius goes with the square root.
      const r = 80 * Math.sqrt(random());
      const bearing = random() * 2 * Math.PI;
      const at = offset([system.origin.lng, system.origin.lat], r * Math.sin(bearing), r * Math.cos(bearing));
      areas.push({ key: `near:${system.id}:${i}`, kind: 'near-origin', shape: new PreparedCircle(at, radiusM()) });
    }
  }
  const grid = new Grid();
  const districts = loadDistricts();
  districts.forEach((polygon, i) => {
    if (random() < 1 / 3) areas.push({ key: `district:${i}`, kind: 'district', shape: new PreparedPolygon(polygon, grid) });
  });
  return { areas, districtSource: districts.length > 0 ? `${districts.length} districts of the shared boundary files` : 'no district file found' };
}

// ---------------------------------------------------------------------------------------------- truth

function polygonOf(ring: { points: Array<{ lng: number; lat: number }> } | null | undefined): MultiPolygon {
  const exterior = (ring?.points ?? []).map((p): Position => [p.lng, p.lat]);
  return exterior.length < 4 ? [] : [{ exterior, holes: [] }];
}

/** The true cell at t as the matcher would read it, or undefined outside its life as a cell. */
function trueCell(system: StormSystem, t: number): { polygon: MultiPolygon; box: BBox } | undefined {
  const shape = cellPolygonAt(system, t);
  if (!shape) return undefined;
  const polygon = polygonOf(shape.exterior);
  return polygon.length === 0 ? undefined : { polygon, box: bboxOfMultiPolygon(polygon) };
}

/** Every area the true cell touches during its life, with when: sampled each minute, edges refined to 7.5 s. */
function trueContacts(system: StormSystem, window: { from: number; to: number }, index: AreaIndex): Map<number, Contact[]> {
  const times = [window.from];
  for (let t = Math.floor(window.from / MINUTE) * MINUTE + MINUTE; t < window.to; t += MINUTE) times.push(t);
  times.push(window.to);
  const touchedAt = new Map<number, boolean[]>();
  times.forEach((t, k) => {
    const cell = trueCell(system, t);
    if (!cell) return;
    for (const i of index.within(cell.box)) {
      if (!index.areas[i]!.shape.intersects(cell.polygon, cell.box)) continue;
      let flags = touchedAt.get(i);
      if (!flags) touchedAt.set(i, (flags = times.map(() => false)));
      flags[k] = true;
    }
  });
  const out = new Map<number, Contact[]>();
  for (const [i, flags] of touchedAt) {
    const area = index.areas[i]!.shape;
    const touches = (t: number): boolean => {
      const cell = trueCell(system, t);
      return cell !== undefined && area.intersects(cell.polygon, cell.box);
    };
    const edge = (outside: number, inside: number): number => {
      for (let n = 0; n < TRUTH_REFINE; n++) {
        const mid = (outside + inside) / 2;
        if (touches(mid)) inside = mid;
        else outside = mid;
      }
      return inside;
    };
    out.set(i, contactsFromSamples(times, flags, edge));
  }
  return out;
}

// ---------------------------------------------------------------------------------------------- the run

interface JudgedPrediction extends Prediction {
  kind: SkillArea['kind'];
  /** The cell stopped being a cell before the predicted entry. */
  diedBefore: boolean;
  /** The predicted speed over the system's steering speed (truth, for the analysis only). */
  speedFactor: number;
}

interface RunResult {
  cells: number;
  cellScans: number;
  withoutMotion: number;
  predictions: JudgedPrediction[];
  pairs: Array<ApproachPair & { diedBeforeVerify: boolean[] }>;
  /** Distance between the centroid moved 60 min along the resolved motion and the true centre then, km. */
  centroidErrors60Km: number[];
  /** The same at 30 min. */
  centroidErrors30Km: number[];
}

/** One cell's part of the run: its truth, the APPROACHING state of each area, its first record. */
interface CellRun {
  system: StormSystem;
  window: { from: number; to: number };
  contacts: Map<number, Contact[]>;
  states: Map<number, ApproachState>;
  firstRecordMs: number | undefined;
}

/**
 * Every scan of every cell, in time order across the cells as the feed delivers them (the matcher's
 * regional flow learns from the other cells' revisions up to the scan, never after it).
 */
function run(systems: readonly StormSystem[], index: AreaIndex): RunResult {
  const tracks = new TrackMemory();
  const result: RunResult = { cells: 0, cellScans: 0, withoutMotion: 0, predictions: [], pairs: [], centroidErrors60Km: [], centroidErrors30Km: [] };
  const cells: CellRun[] = systems.map((system) => {
    const window = cellWindow(system)!;
    return { system, window, contacts: trueContacts(system, window, index), states: new Map(), firstRecordMs: undefined };
  });
  result.cells = cells.length;
  const scans: Array<{ t: number; cell: CellRun }> = [];
  for (const cell of cells) {
    for (let t = Math.ceil(cell.window.from / opts.scanMs) * opts.scanMs; t <= cell.window.to; t += opts.scanMs) scans.push({ t, cell });
  }
  scans.sort((a, b) => a.t - b.t); // stable: cells of one scan keep their birth order
  for (const scan of scans) {
    const { t } = scan;
    const { system, window, contacts, states } = scan.cell;
    const stateOf = (i: number): ApproachState => {
      let state = states.get(i);
      if (!state) states.set(i, (state = newApproachState()));
      return state;
    };
    const record = cellRecord(system, t, opts.scanMs, seed);
    const cell = record?.cell;
    if (!record || !cell) continue;
    const polygon = polygonOf(cell.polygon?.exterior);
    if (polygon.length === 0 || !cell.centroid) continue;
    scan.cell.firstRecordMs ??= t;
    result.cellScans++;
    // The revision as the matcher projects it (the simulator reports km/h, as ingest delivers it).
    const eventId = `tst_${record.sourceEventId}`;
    const observedMs = record.updatedEpochMs;
    const box = bboxOfMultiPolygon(polygon);
    const centroid: Position = [cell.centroid.lng, cell.centroid.lat];
    const projection = projectStorm(
      {
        eventId,
        observedMs,
        threat: [],
        threatBox: box,
        threshold: record.threshold,
        // The record's end time is not passed: the simulator writes the cell's true end there, which no real feed knows.
        cell: {
          centroid,
          speedKmh: cell.speed,
          directionDeg: cell.directionDeg,
          polygon,
          box,
          areaKm2: cell.areaKm2,
          flashRates: { total: cell.flashRates?.total ?? 0 },
        },
      },
      tracks,
    );
    const motion = projection.motion;
    if (!motion) result.withoutMotion++;
    else {
      // Where the motion puts the centre 30 and 60 min on, against where the system really is then.
      for (const [minutes, errors] of [
        [30, result.centroidErrors30Km],
        [HORIZON_MIN, result.centroidErrors60Km],
      ] as const) {
        if (!stateAt(system, t + minutes * MINUTE)) continue;
        const rad = (motion.towardDeg * Math.PI) / 180;
        const km = motion.speedKmh * (minutes / 60);
        const truth = centerAt(system, t + minutes * MINUTE);
        errors.push(distanceKm(offset(centroid, km * Math.sin(rad), km * Math.cos(rad)), [truth.lng, truth.lat]));
      }
    }
    // The areas it touches now (START), then the ones its path may reach.
    const touching = new Set(index.within(box).filter((i) => index.areas[i]!.shape.intersects(polygon, box)));
    for (const i of touching) approachStep(stateOf(i), t, { touching: true, entryMin: undefined });
    const path = projection.pathBox();
    const candidates = motion && path ? index.within(path) : [];
    const seen = new Set<number>();
    for (const i of candidates) {
      if (touching.has(i)) continue;
      const state = stateOf(i);
      if (state.touched) continue;
      seen.add(i);
      const area = index.areas[i]!;
      const entryMin = projection.entryAhead(area.key, area.shape);
      const eta = entryMin === undefined ? undefined : projection.etaFor(area.key, area.shape, false);
      if (eta) {
        result.predictions.push({
          issuedMs: observedMs,
          predictedMs: eta.arrivalEpochMillis,
          earliestMs: eta.arrivalEarliestEpochMillis,
          latestMs: eta.arrivalLatestEpochMillis,
          speedKmh: motion!.speedKmh,
          trueMs: entryAfter(contacts.get(i) ?? [], observedMs),
          kind: area.kind,
          diedBefore: eta.arrivalEpochMillis > window.to,
          speedFactor: motion!.speedKmh / system.speedKmh,
        });
      }
      approachStep(state, observedMs, { touching: false, entryMin, heldBack: entryMin !== undefined && !projection.outlives(entryMin) });
    }
    // A standing APPROACHING whose area left the projected path: no entry predicted any more.
    for (const [i, state] of states) {
      if (state.approaching && !seen.has(i) && !touching.has(i)) approachStep(state, observedMs, { touching: false, entryMin: undefined });
    }
  }
  for (const { window, contacts, states, firstRecordMs } of cells) {
    if (firstRecordMs === undefined) continue;
    for (const i of new Set([...contacts.keys(), ...states.keys()])) {
      const found = contacts.get(i) ?? [];
      const approaches = states.get(i)?.approaches ?? [];
      if (found.length === 0 && approaches.length === 0) continue;
      result.pairs.push({
        approaches,
        contacts: found,
        touchingAtBirth: found[0]?.fromMs === window.from,
        firstRecordMs,
        diedBeforeVerify: approaches.map((a) => window.to < a.issuedMs + APPROACH_VERIFY_MIN * MINUTE),
      });
    }
  }
  return result;
}

// ---------------------------------------------------------------------------------------------- report

const pct = (x: number): string => (Number.isFinite(x) ? `${(100 * x).toFixed(1)} %` : '-');
const num = (x: number, digits = 1): string => (Number.isFinite(x) ? x.toFixed(digits) : '-');

function main(): void {
  const began = performance.now();
  const simulator = new WeatherSimulator(opts);
  const systems = simulator
    .systemsBetween(START_MS, END_MS)
    .filter((s) => {
      const window = cellWindow(s);
      return window !== undefined && window.from >= START_MS && window.from < END_MS;
    })
    .sort((a, b) => a.birthMs - b.birthMs);
  const { areas, districtSource } = placeAreas(systems);
  const index = new AreaIndex(areas);
  const result = run(systems, index);
  const seconds = (performance.now() - began) / 1000;

  const metrics = LEAD_BUCKETS.map((bucket) => leadMetrics(result.predictions, bucket));
  const skill = approachSkill(result.pairs, APPROACH_VERIFY_MIN, 5);
  const at60 = metrics.find((m) => m.leadMin === 60)!;
  const centroid60 = result.centroidErrors60Km.reduce((a, b) => a + b, 0) / result.centroidErrors60Km.length;
  const count = (kind: SkillArea['kind']): number => areas.filter((a) => a.kind === kind).length;

  const out: string[] = [];
  const line = (s = ''): void => void out.push(s);
  const runName = calibrating ? 'CALIBRATION' : seed === EVALUATION_SEED ? 'EVALUATION' : seed === DEVELOPMENT_SEED ? 'DEVELOPMENT' : 'OTHER-SEED';
  line(`# Storm arrival skill (${runName} run, seed ${seed})`);
  line();
  line(
    `Simulator: seed ${seed}, ${storms} systems alive at once over Turkey's box, motion noise ${opts.motionNoise} (default), ` +
      `${hours} h from ${new Date(START_MS).toISOString()}, scans every ${opts.scanMs / MINUTE} min.`,
  );
  line(
    `Cells judged: ${result.cells} (every thunderstorm cell that formed in the window, followed to its end), ${result.cellScans} cell records, ` +
      `${result.withoutMotion} without a motion (nothing projected).`,
  );
  line(
    `Areas: ${count('point')} point alarms uniform over the box, ${count('near-origin')} around cell origins (8 per cell, uniform in 80 km), ` +
      `radius 3-10 km; ${count('district')} districts (${districtSource}).`,
  );
  line(`Predictions recorded: ${result.predictions.length}. Runtime ${seconds.toFixed(1)} s on ${machineDescription()}.`);
  line();
  line(
    '| lead (min) | predictions | with a true entry | MAE (min) | median abs (min) | bias (min) | in window | early of window | late of window | never verified | cell gone before predicted entry | mean abs along-track (km) |',
  );
  line('|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const [k, m] of metrics.entries()) {
    const bucket = LEAD_BUCKETS[k]!;
    const inside = result.predictions.filter((p) => {
      const lead = (p.predictedMs - p.issuedMs) / MINUTE;
      return lead >= bucket.fromMin && (bucket.closed ? lead <= bucket.toMin : lead < bucket.toMin);
    });
    const entered = inside.filter((p) => p.trueMs !== undefined);
    const early = entered.filter((p) => p.trueMs! < p.earliestMs).length / entered.length;
    const late = entered.filter((p) => p.trueMs! > p.latestMs).length / entered.length;
    const died = inside.filter((p) => p.diedBefore).length / inside.length;
    line(
      `| ${m.leadMin} [${bucket.fromMin}, ${bucket.toMin}${bucket.closed ? ']' : ')'} | ${m.count} | ${m.withEntry} | ${num(m.maeMin)} | ${num(m.medianAbsMin)} | ` +
        `${num(m.biasMin)} | ${pct(m.coverage)} | ${pct(early)} | ${pct(late)} | ${pct(m.unverified)} | ${pct(died)} | ${num(m.meanAlongKm)} |`,
    );
  }
  line();
  const falseDied = result.pairs.reduce(
    (n, pair) =>
      n +
      pair.approaches.filter(
        (a, k) => pair.diedBeforeVerify[k] && (entryAfter(pair.contacts, a.issuedMs) ?? Infinity) > a.issuedMs + APPROACH_VERIFY_MIN * MINUTE,
      ).length,
    0,
  );
  line(
    `APPROACHING (lead ${APPROACH_LEAD_MIN} min): ${skill.issued} issued, ${skill.falseAlarms} false (of which ${falseDied} by cells that stopped being cells ` +
      `within ${APPROACH_VERIFY_MIN} min of the issue): false-alarm ratio ${num(skill.far, 3)}.`,
  );
  line(
    `  ${skill.entries} true first entries, ${skill.detected} detected: probability of detection ${num(skill.pod, 3)}; ` +
      `of the ${skill.warnableEntries} entries at least 5 min after the cell's first record, ${skill.warnableDetected} detected: ${num(skill.podWarnable, 3)}.`,
  );
  line();
  line('By kind of area at lead 30 (predictions, MAE, in window, never verified):');
  for (const kind of ['point', 'near-origin', 'district'] as const) {
    const m = leadMetrics(
      result.predictions.filter((p) => p.kind === kind),
      LEAD_BUCKETS[2]!,
    );
    line(`  ${kind}: ${m.count}, ${num(m.maeMin)} min, ${pct(m.coverage)}, ${pct(m.unverified)}`);
  }
  line();
  line(
    `Position error at 60 min, for comparison: the published linear extrapolation of cell trackers misses by roughly 15-30 km at one hour ` +
      `(Ebert et al. 2004, Sydney 2000 FDP). Here: mean along-track arrival error at lead 60 = ${num(at60.meanAlongKm)} km; ` +
      `mean distance between the centroid moved 60 min along the matcher's motion and the true centre = ${num(centroid60)} km ` +
      `(${result.centroidErrors60Km.length} cell records whose system lived 60 min more).`,
  );
  line();
  line('Definitions.');
  line(
    '- A prediction: a cell record (scan) and an area in the box of its projected path that the cell has not touched at this or any earlier scan, for which',
  );
  line(
    '  the predictor gives an entry ahead (etaFor with insideNow false). Lead = predicted entry − scan time; buckets [5,15), [15,25), [25,35), [40,50), [55,60].',
  );
  line("- True entry: the first moment at or after the scan at which the simulator's cell polygon touches the area (1-min steps, edges refined to 7.5 s),");
  line("  searched to the end of the cell's life as a cell; none if it never touches.");
  line(
    '- MAE, median, bias: over the predictions with a true entry, true − predicted. In window: earliest <= true entry <= latest, over the same predictions.',
  );
  line('- Never verified: no true entry within 60 min after the predicted entry (including none at all), over all predictions of the bucket.');
  line(
    `- Along-track error: (true − predicted) × the predicted storm speed; ETA_CALIBRATION holds its ${quantileName(WINDOW_QUANTILES.early)} and ` +
      `${quantileName(WINDOW_QUANTILES.late)} percentiles per lead.`,
  );
  line(
    `- APPROACHING: sent at the first scan that predicts an entry within ${APPROACH_LEAD_MIN} min (0 < entry <= ${APPROACH_LEAD_MIN}) while the cell has not touched`,
  );
  line(
    '  the area; not sent again while it stands; cancelled at a scan that predicts no entry within the horizon (as decideRevision does); answered by the START.',
  );
  line(`- False-alarm ratio: of the APPROACHING sent, the share whose cell did not enter the area within ${APPROACH_VERIFY_MIN} min after the issue.`);
  line('- Probability of detection: of the true first entries (a cell entering an area it has not touched since it became a cell; a cell born over an area');
  line('  does not enter it), the share with an APPROACHING issued at least 5 min before the entry and not cancelled before it.');
  line();
  line(`Targets (default motion noise): window coverage >= 80 % at every lead; MAE at 30 min <= 8 min; false-alarm ratio of APPROACHING at 30 min <= 0.3.`);
  const verdicts: string[] = [];
  for (const m of metrics) {
    verdicts.push(
      m.coverage >= 0.8
        ? `coverage at ${m.leadMin} min: met (${pct(m.coverage)})`
        : `coverage at ${m.leadMin} min: MISSED by ${num(100 * (0.8 - m.coverage))} points (${pct(m.coverage)})`,
    );
  }
  const mae30 = metrics.find((m) => m.leadMin === 30)!.maeMin;
  verdicts.push(mae30 <= 8 ? `MAE at 30 min: met (${num(mae30)} min)` : `MAE at 30 min: MISSED by ${num(mae30 - 8)} min (${num(mae30)} min)`);
  verdicts.push(
    skill.far <= 0.3
      ? `FAR of APPROACHING at 30 min: met (${num(skill.far, 3)})`
      : `FAR of APPROACHING at 30 min: MISSED by ${num(skill.far - 0.3, 3)} (${num(skill.far, 3)})`,
  );
  for (const v of verdicts) line(`  ${v}`);
  line();
  for (const why of analysis(result, metrics, skill, falseDied)) line(why);
  if (calibrating) {
    const spread = measureSpread(result.predictions);
    line();
    line(
      `Measured along-track spread (${quantileName(WINDOW_QUANTILES.early)}, ${quantileName(WINDOW_QUANTILES.late)} percentile, km) ` +
        `on calibration seed ${seed}; the table in force now:`,
    );
    line(`  ${ETA_CALIBRATION.map((c) => `${c.leadMin}: ${c.earlyKm}..${c.lateKm}`).join(', ')}`);
    line();
    line(calibrationSource(spread));
    line();
    line('(The figures above are in-sample on the calibration seed; judge the windows with the evaluation run.)');
  }
  process.stdout.write(`${out.join('\n')}\n`);

  if (!calibrating) {
    const bench = 'storm arrival skill';
    const note = `seed ${seed}, ${hours} h of July, ${storms} systems, ${result.cells} cells, ${areas.length} areas`;
    for (const m of metrics) reportLead(bench, m, note);
    reportBench({
      bench,
      metric: 'APPROACHING false-alarm ratio (lead 30)',
      value: round3(skill.far),
      unit: 'ratio',
      note: `${skill.issued} issued; target <= 0.3`,
    });
    reportBench({
      bench,
      metric: 'APPROACHING probability of detection (lead 30)',
      value: round3(skill.pod),
      unit: 'ratio',
      note: `${skill.entries} true first entries`,
    });
    reportBench({
      bench,
      metric: 'mean along-track error at lead 60',
      value: round3(at60.meanAlongKm),
      unit: 'km',
      note: 'Ebert et al. 2004: 15-30 km at 1 h',
    });
    reportBench({ bench, metric: 'mean centroid error at 60 min', value: round3(centroid60), unit: 'km', note: 'Ebert et al. 2004: 15-30 km at 1 h' });
    reportBench({ bench, metric: 'runtime', value: round3(seconds), unit: 's', note: machineDescription() });
  }
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Why the figures are what they are, from the truth the predictor never sees: how far the motion
 * itself misses, how arrival errors depend on the cell being caught in a spurt or a lull of its
 * wandering speed, and how many false APPROACHING came from cells that ended before they could arrive.
 */
function analysis(result: RunResult, metrics: readonly LeadMetrics[], skill: ReturnType<typeof approachSkill>, falseDied: number): string[] {
  const out = ["Why (diagnostics from the simulator's truth; the predictor sees none of it):"];
  const bucket30 = LEAD_BUCKETS.find((b) => b.leadMin === 30)!;
  const at30 = result.predictions.filter(
    (p) => (p.predictedMs - p.issuedMs) / MINUTE >= bucket30.fromMin && (p.predictedMs - p.issuedMs) / MINUTE < bucket30.toMin,
  );
  const speeds = at30.map((p) => p.speedKmh).sort((a, b) => a - b);
  const medianSpeed = speeds[Math.floor(speeds.length / 2)] ?? Number.NaN;
  const miss30 = mean(result.centroidErrors30Km);
  out.push(
    `- Arrival error: the motion itself changes. The centre moved 30 min along the matcher's motion misses the true centre by ${num(miss30)} km on ` +
      `average (60 min: ${num(mean(result.centroidErrors60Km))} km); at the median predicted speed at lead 30, ${num(medianSpeed)} km/h, ${num(miss30)} km ` +
      `is ${num((miss30 / medianSpeed) * 60)} min. An 8-min MAE at 30 min asks for about ${num((8 * medianSpeed) / 60)} km.`,
  );
  const groups: Array<[string, (f: number) => boolean]> = [
    ['faster than 1.3 x its steering speed', (f) => f > 1.3],
    ['within 0.77-1.3 x', (f) => f >= 0.77 && f <= 1.3],
    ['slower than 0.77 x', (f) => f < 0.77],
  ];
  out.push("  At lead 30, by the cell's speed at the scan against its steering motion (the feed reports the last 10 minutes' motion):");
  for (const [name, holds] of groups) {
    const m = leadMetrics(
      at30.filter((p) => holds(p.speedFactor)),
      bucket30,
    );
    const late = at30.filter((p) => holds(p.speedFactor) && p.trueMs !== undefined && p.trueMs > p.latestMs).length / Math.max(1, m.withEntry);
    out.push(
      `    ${name}: ${pct(m.count / at30.length)} of the predictions, MAE ${num(m.maeMin)} min, bias ${num(m.biasMin)} min, ${pct(late)} after the window, ` +
        `never verified ${pct(m.unverified)}`,
    );
  }
  out.push(
    '  A cell caught in a spurt slows down and arrives late, one caught in a lull speeds up and arrives early; fast cells sweep more areas, so they weigh most.',
  );
  const alive = skill.issued - falseDied;
  out.push(
    `- False alarms: ${falseDied} of the ${skill.falseAlarms} (${pct(falseDied / skill.falseAlarms)}) came from cells that stopped being cells within ` +
      `${APPROACH_VERIFY_MIN} min of the issue (cells whose flash rate and area did not yet show the decay, or showed it too slowly to hold the warning back); ` +
      `without those APPROACHING the ratio would still be ` +
      `${num((skill.falseAlarms - falseDied) / alive, 3)}: the rest are paths that passed beside the area (a miss of ~10 km at 30 min is enough to pass a 3-10 km alarm).`,
  );
  const missed = metrics.filter((m) => m.coverage < 0.8);
  if (missed.length > 0) {
    out.push(
      `- Window coverage below 80 % at ${missed.map((m) => m.leadMin).join(', ')} min: the windows are the ` +
        `${quantileName(WINDOW_QUANTILES.early)}-${quantileName(WINDOW_QUANTILES.late)} percentiles of the calibration seed, ` +
        `so about ${Math.round((WINDOW_QUANTILES.late - WINDOW_QUANTILES.early) * 100)} % is all they aim at there; the early and late columns tell which side falls short.`,
    );
  }
  return out;
}

/** 0.08 → "8th". */
function quantileName(q: number): string {
  const n = Math.round(q * 100);
  const suffix = n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  return `${n}${suffix}`;
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}

function reportLead(bench: string, m: LeadMetrics, note: string): void {
  reportBench({ bench, metric: `MAE at lead ${m.leadMin} min`, value: round3(m.maeMin), unit: 'min', note: `${m.withEntry} arrivals; ${note}` });
  reportBench({ bench, metric: `window coverage at lead ${m.leadMin} min`, value: round3(m.coverage), unit: 'share', note: 'target >= 0.8' });
  reportBench({ bench, metric: `never verified at lead ${m.leadMin} min`, value: round3(m.unverified), unit: 'share', note: `${m.count} predictions` });
}

main();
