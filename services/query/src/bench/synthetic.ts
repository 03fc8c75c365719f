import { AreaIndex, type SubscriptionArea } from '@stormhook/access';
import type { IndexEntry } from '../read-models/entry.js';

/** A seeded generator (mulberry32), so runs on one machine are comparable. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** 81 provinces of TUR and Northern Cyprus as area keys and names (outlines are not needed to query). */
export function syntheticAreas(): AreaIndex {
  const areas: SubscriptionArea[] = [];
  const dummy = { minLng: 0, minLat: 0, maxLng: 0, maxLat: 0 };
  for (let id = 1; id <= 81; id++) areas.push({ key: `TUR:${id}`, countryCode: 'TUR', name: `Province ${id}`, parts: [], bbox: dummy });
  areas.push({ key: 'CTR:1', countryCode: 'CTR', name: 'Lefkoşa', parts: [], bbox: dummy });
  return new AreaIndex(areas);
}

/**
 * `count` precipitation index entries over the `spanMs` before `now`, as a busy radar feed makes
 * them: ids like the simulator's, intensities skewed to the light end, each touching one to three
 * provinces (more of them in the west, where most weather and people are).
 */
export function syntheticEntries(count: number, now: number, spanMs: number, seed = 20261121): IndexEntry[] {
  const rnd = random(seed);
  const entries: IndexEntry[] = [];
  const weights = [0.3, 0.3, 0.2, 0.12, 0.06, 0.02];
  for (let i = 0; i < count; i++) {
    const time = Math.round(now - spanMs + (i / count) * spanMs + rnd() * 60_000);
    let r = rnd();
    let rank = 1;
    for (const w of weights) {
      if (r < w) break;
      r -= w;
      rank++;
    }
    const province = 1 + Math.floor(81 * rnd() ** 1.5);
    const areas = [`TUR:${province}`];
    if (rnd() < 0.3) areas.push(`TUR:${1 + ((province + 1) % 81)}`);
    if (rnd() < 0.02) areas.push('CTR:1');
    const lng = 26 + rnd() * 18;
    const lat = 36 + rnd() * 6;
    entries.push({
      eventId: `prc_sim-${Math.floor(time / 300_000)}-s${Math.floor(rnd() * 40)}-b${rank}-${i.toString(36)}`,
      revision: 1,
      time,
      startTime: time,
      rank: Math.min(6, rank),
      flags: rnd() < 0.2 ? 1 : 0,
      bbox: { minLng: lng, minLat: lat, maxLng: lng + 0.3, maxLat: lat + 0.2 },
      areas,
    });
  }
  return entries;
}
