import { MongoClient } from 'mongodb';
import { databaseName } from '@stormhook/mongo';
import { lcg } from '../faults/storm.js';
import type { StoredFilter } from './city-callbacks.js';
import { ISTANBUL_CITY_ID, pointInIstanbul, type Istanbul } from './istanbul.js';

/** Accounts the İstanbul registrations belong to (each gets one webhook endpoint). */
const ACCOUNTS = 500;

/**
 * A filter from the mix: lightning on 60 % of the alarms (a fifth of them asking for at least 30 kA,
 * which the storm's 24 kA strikes never reach), thunderstorm on 45 % (both polygons, the cell only,
 * HIGH severity only, or storms of 50 km/h and more), precipitation on 45 % (any intensity, or heavy
 * and worse); an alarm that drew none watches lightning.
 */
export function filterMix(random: () => number): StoredFilter {
  const filter: StoredFilter = {};
  if (random() < 0.6) filter.lightning = random() < 0.8 ? {} : { peakCurrentA: 30_000 };
  if (random() < 0.45) {
    const variants: Array<NonNullable<StoredFilter['thunderstorm']>> = [
      {},
      { intersectsCellPolygon: true },
      { severityThreshold: 'HIGH' },
      { speedThresholdKmh: 50 },
    ];
    filter.thunderstorm = variants[Math.floor(random() * variants.length)]!;
  }
  if (random() < 0.45) filter.precipitation = random() < 0.5 ? { intensities: [] } : { intensities: ['HEAVY', 'VERY_HEAVY', 'EXTREME'] };
  if (!filter.lightning && !filter.thunderstorm && !filter.precipitation) filter.lightning = {};
  return filter;
}

/**
 * Seeds `count` registrations in İstanbul straight into the matcher's database, in its stored form
 * (persistence/registration-repository.ts: the domain object with `_id` and the unique `areaKey`), as
 * `@stormhook/alarm-matcher/bench` seeds point alarms: 60 % point alarms of 1-10 km over the city's
 * land, 25 % district alarms, 15 % neighbourhood alarms, each with a filter from {@link filterMix}.
 * A matcher started afterwards loads them as in production.
 */
export async function seedIstanbul(options: { mongoUrl: string; dbPrefix: string; count: number; istanbul: Istanbul; seed?: number }): Promise<{
  inserted: number;
  accountIds: string[];
  mix: string;
}> {
  const random = lcg(options.seed ?? 3434);
  const { districts, neighbourhoods } = options.istanbul;
  const now = Date.now();
  const counts = { points: 0, districts: 0, neighbourhoods: 0 };
  const client = new MongoClient(options.mongoUrl);
  try {
    const collection = client.db(databaseName('alarm_matcher', options.dbPrefix)).collection<Record<string, unknown> & { _id: string }>('registrations');
    let inserted = 0;
    let batch: Array<Record<string, unknown> & { _id: string }> = [];
    for (let i = 0; i < options.count; i++) {
      const draw = random();
      const common = {
        _id: `city-${options.dbPrefix}-${i}`,
        accountId: `city-account-${i % ACCOUNTS}`,
        recipientId: `city-recipient-${i}`,
        createdAtMs: now,
        updatedAtMs: now,
        version: 1,
        warnings: [],
        filter: filterMix(random),
      };
      if (draw < 0.6) {
        const point = pointInIstanbul(options.istanbul, random);
        const radiusM = 1_000 + Math.round(random() * 9_000);
        batch.push({ ...common, kind: 'POINT', circle: { point, radiusM }, areaKey: `pt:${point.lat.toFixed(5)},${point.lng.toFixed(5)}:r${radiusM}` });
        counts.points++;
      } else if (draw < 0.85) {
        const district = districts[Math.floor(random() * districts.length)]!;
        batch.push({
          ...common,
          kind: 'GEOMETRY',
          area: { cityId: ISTANBUL_CITY_ID, districtId: district.id },
          areaKey: `adm:${ISTANBUL_CITY_ID}:${district.id}:-`,
        });
        counts.districts++;
      } else {
        const n = neighbourhoods[Math.floor(random() * neighbourhoods.length)]!;
        batch.push({
          ...common,
          kind: 'GEOMETRY',
          area: { cityId: ISTANBUL_CITY_ID, districtId: n.districtId, neighborhoodId: n.id },
          areaKey: `adm:${ISTANBUL_CITY_ID}:${n.districtId}:${n.id}`,
        });
        counts.neighbourhoods++;
      }
      if (batch.length === 1_000 || i === options.count - 1) {
        inserted += (await collection.insertMany(batch, { ordered: false })).insertedCount;
        batch = [];
      }
    }
    return {
      inserted,
      accountIds: Array.from({ length: Math.min(ACCOUNTS, options.count) }, (_, i) => `city-account-${i}`),
      mix: `${counts.points.toLocaleString('en')} points of 1-10 km, ${counts.districts.toLocaleString('en')} district and ${counts.neighbourhoods.toLocaleString('en')} neighbourhood alarms`,
    };
  } finally {
    await client.close();
  }
}
