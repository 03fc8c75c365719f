/**
 * A synthetic storm season for the weather history (benchmarks only): storm systems born each day,
 * mostly in the afternoon, moving north-east at 20-60 km/h for 2-7 hours, strikes scattered about
 * their cores, quiet days and busy ones; ids, currents, heights and rounding like ingest's
 * simulator. Each strike is encoded as ingest publishes it, with a thunderstorm cell and a
 * precipitation area per system every 5 minutes, and written day by day with the store's bulk append.
 * Deterministic: the same strikes for the same count and window.
 */
import { weatherV1 } from '@stormhook/proto';
import { DAY_MS, dayOf } from '../history/domain/buckets.js';
import { storedRecord, type StoredRecord } from '../history/domain/record.js';
import { lightningRecord } from '../history/persistence/describe-lightning.js';
import type { HistoryStore } from '../history/persistence/history-store.js';
import { random } from './synthetic.js';

export const SEED = 24;
export const KM_PER_DEG = 111.2;

interface System {
  id: string;
  birth: number;
  lifeMs: number;
  lng: number;
  lat: number;
  /** km/h east and north. */
  vx: number;
  vy: number;
  strikes: number;
  cgFraction: number;
  spreadKm: number;
}

function normal(rnd: () => number): number {
  return Math.sqrt(-2 * Math.log(1 - rnd())) * Math.cos(2 * Math.PI * rnd());
}

function at(s: System, t: number): { lng: number; lat: number } {
  const h = (t - s.birth) / 3_600_000;
  const lat = s.lat + (s.vy * h) / KM_PER_DEG;
  return { lng: s.lng + (s.vx * h) / (KM_PER_DEG * Math.cos((lat * Math.PI) / 180)), lat };
}

const round5 = (v: number) => Math.round(v * 1e5) / 1e5;

/** The storm systems of a day, sharing `strikes` strikes. */
function systemsOf(day: number, strikes: number, rnd: () => number): System[] {
  const count = 8 + Math.floor(rnd() * 20);
  const weights = Array.from({ length: count }, () => Math.exp(normal(rnd)));
  const total = weights.reduce((a, b) => a + b, 0);
  return weights.map((w, k) => {
    const speed = 20 + rnd() * 40;
    const dir = ((20 + rnd() * 90) * Math.PI) / 180; // towards NNE to ESE
    return {
      id: `c${day % 1000}x${k}`,
      // Afternoon convection: births centred on 12 UTC (15 local).
      birth: day * DAY_MS + Math.min(22, Math.max(0, 12 + 3.5 * normal(rnd))) * 3_600_000,
      lifeMs: (2 + rnd() * 5) * 3_600_000,
      lng: 27 + rnd() * 16,
      lat: 36.8 + rnd() * 4.5,
      vx: speed * Math.sin(dir),
      vy: speed * Math.cos(dir),
      strikes: Math.round((strikes * w) / total),
      cgFraction: 0.15 + rnd() * 0.3,
      spreadKm: 4 + rnd() * 8,
    };
  });
}

/** A strike as ingest publishes it (validate-lightning.ts, ingest-record.ts: every revision field set). */
function strikeValue(s: System, t: number, n: number, rnd: () => number): { value: Uint8Array; ingested: number; lng: number; lat: number } {
  const c = at(s, t);
  const lat = round5(c.lat + (normal(rnd) * s.spreadKm) / KM_PER_DEG);
  const lng = round5(c.lng + (normal(rnd) * s.spreadKm) / (KM_PER_DEG * Math.cos((lat * Math.PI) / 180)));
  const cg = rnd() < s.cgFraction;
  const positive = cg ? rnd() < 0.1 : rnd() < 0.5;
  const kA = Math.exp(Math.log(cg ? (positive ? 30 : 18) : 6) + 0.6 * normal(rnd));
  const ingested = t + 400 + Math.floor(rnd() * 2_500);
  const sourceEventId = `sim${SEED}-${s.id}-f${Math.floor(t / 10_000)}-${n}`;
  const value = weatherV1.LightningEvent.encode({
    eventId: `ltg_${sourceEventId}`,
    sourceEventId,
    revision: { revision: 1, sourceVersion: 0, sourceUpdatedEpochMs: 0, ingestedEpochMs: ingested },
    areaKey: 'sxk',
    timeEpochMs: t,
    type: cg ? 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND' : 'LIGHTNING_TYPE_FLASH_IN_CLOUD',
    location: { lng, lat },
    peakCurrentAmperes: Math.round(Math.min(kA, 450) * 1000) * (positive ? 1 : -1),
    ...(cg ? {} : { inCloudHeightM: Math.round(Math.min(16_000, Math.max(2_000, 8_000 + 2_000 * normal(rnd)))) }),
    multiplicity: cg && !positive ? 1 + (Math.floor(-Math.log(1 - rnd()) / 0.43) % 14) : 1,
  } as weatherV1.LightningEvent);
  return { value, ingested, lng, lat };
}

function ring(c: { lng: number; lat: number }, km: number, points = 16) {
  const out = [];
  for (let i = 0; i <= points; i++) {
    const a = (2 * Math.PI * (i % points)) / points;
    out.push({
      lng: round5(c.lng + (km * Math.sin(a)) / (KM_PER_DEG * Math.cos((c.lat * Math.PI) / 180))),
      lat: round5(c.lat + (km * Math.cos(a)) / KM_PER_DEG),
    });
  }
  return { points: out };
}

/** A thunderstorm cell and a precipitation area of a system every 5 minutes of its life. */
function polygons(s: System, from: number, to: number): StoredRecord[] {
  const out: StoredRecord[] = [];
  for (let t = Math.ceil(s.birth / 300_000) * 300_000; t < s.birth + s.lifeMs; t += 300_000) {
    if (t < from || t >= to) continue;
    const c = at(s, t);
    const ingested = t + 30_000;
    const tag = `${s.id}-${t / 300_000}`;
    const storm = weatherV1.ThunderstormEvent.create({
      eventId: `tst_${tag}`,
      sourceEventId: tag,
      revision: { revision: 1, ingestedEpochMs: ingested },
      areaKey: 'sxk',
      startEpochMs: s.birth,
      endEpochMs: t + 600_000,
      severity: 'THUNDERSTORM_SEVERITY_MEDIUM',
      cell: { areaKm2: 80, centroid: c, polygon: { exterior: ring(c, 5), holes: [] } },
      threatPolygon: { exterior: ring(at(s, t + 1_800_000), 12), holes: [] },
    });
    out.push(storedRecord('THUNDERSTORM', storm, weatherV1.ThunderstormEvent.encode(storm), ingested));
    const rain = weatherV1.PrecipitationEvent.create({
      eventId: `prc_${tag}`,
      sourceEventId: `radar-${tag}`,
      revision: { revision: 1, ingestedEpochMs: ingested },
      areaKey: 'sxk',
      radarTimestampEpochMs: t,
      intensity: 'PRECIPITATION_INTENSITY_HEAVY',
      geometry: { polygons: [{ exterior: ring(c, s.spreadKm * 1.5, 48), holes: [] }] },
      centroid: c,
    });
    out.push(storedRecord('PRECIPITATION', rain, weatherV1.PrecipitationEvent.encode(rain), ingested));
  }
  return out;
}

/** The box of a square `km` from the point each way (a 10 km point alarm's box: km = 10). */
export function boxAround(p: { lng: number; lat: number }, km: number): { minLng: number; minLat: number; maxLng: number; maxLat: number } {
  const dLat = km / KM_PER_DEG;
  const dLng = km / (KM_PER_DEG * Math.cos((p.lat * Math.PI) / 180));
  return { minLng: p.lng - dLng, minLat: p.lat - dLat, maxLng: p.lng + dLng, maxLat: p.lat + dLat };
}

export interface SeededSeason {
  strikes: number;
  polygons: number;
  /** Strike positions sampled along the storm tracks (about one in 20,000): where a read finds storms. */
  tracks: Array<{ lng: number; lat: number }>;
  synthMs: number;
  storeMs: number;
  seconds: number;
}

/** Seeds about `wantedStrikes` strikes ingested in [from, to) into the store (loaded by the caller). */
export async function seedStormSeason(store: HistoryStore, wantedStrikes: number, from: number, to: number): Promise<SeededSeason> {
  const STRIKES = wantedStrikes;
  const rnd = random(SEED);
  // Storm season: a few quiet days, most busy, some very busy.
  const days: number[] = [];
  for (let d = dayOf(from); d <= dayOf(to); d++) days.push(d);
  const weights = days.map(() => (rnd() < 0.15 ? 0.05 : 0.4 + rnd() * 1.6));
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const tracks: Array<{ lng: number; lat: number }> = [];
  let strikes = 0;
  let polygonsStored = 0;
  let synthMs = 0;
  let storeMs = 0;
  const started = performance.now();
  // A system born late runs into the next day: its records there wait for that day's write, so
  // each bulk write holds one whole UTC day of ingest time (one chunk per day and cell).
  let carried: StoredRecord[] = [];
  for (const [i, day] of days.entries()) {
    const t0 = performance.now();
    // About 4 % of the strikes drawn fall outside the 30 days (systems of the first and last day): draw more.
    const wanted = Math.round((STRIKES * 1.06 * weights[i]!) / weightSum);
    const records: StoredRecord[] = carried;
    for (const s of systemsOf(day, wanted, rnd)) {
      const perTick = new Map<number, number>();
      for (let k = 0; k < s.strikes; k++) {
        // Flash rate rises and falls over the system's life (triangular).
        const t = Math.floor(s.birth + ((rnd() + rnd()) / 2) * s.lifeMs);
        if (t < from || t >= to) continue;
        const tick = Math.floor(t / 10_000);
        const n = perTick.get(tick) ?? 0;
        perTick.set(tick, n + 1);
        const strike = strikeValue(s, t, n, rnd);
        records.push(lightningRecord(strike.value, strike.ingested));
        if (k % 20_000 === 7) tracks.push({ lng: strike.lng, lat: strike.lat });
      }
      for (const r of polygons(s, from, to)) records.push(r);
    }
    const own = records.filter((r) => dayOf(r.ingestedMs) <= day);
    carried = records.filter((r) => dayOf(r.ingestedMs) > day);
    const t1 = performance.now();
    await store.bulkAppend(own);
    storeMs += performance.now() - t1;
    synthMs += t1 - t0;
    for (const r of own) {
      if (r.kind === 'LIGHTNING') strikes++;
      else polygonsStored++;
    }
  }
  if (carried.length > 0) {
    const t1 = performance.now();
    await store.bulkAppend(carried);
    storeMs += performance.now() - t1;
    for (const r of carried) {
      if (r.kind === 'LIGHTNING') strikes++;
      else polygonsStored++;
    }
  }
  return { strikes, polygons: polygonsStored, tracks, synthMs, storeMs, seconds: (performance.now() - started) / 1000 };
}

export { DAY_MS };
