/**
 * Benchmark support, exported as `@stormhook/alarm-matcher/bench`: writes point registrations
 * straight into a matcher database in the repository's own stored form, so a benchmark can start a
 * matcher holding 100,000 registrations without registering them one by one through the API (which
 * would take longer than the benchmark). A matcher started afterwards loads them as in production.
 */
import { seeded } from '@stormhook/geometry/testing';
import { MongoClient } from 'mongodb';
import { databaseName } from '@stormhook/mongo';
import type { PointRegistration } from '../domain/registration.js';
import { Grid } from '../geometry/grid.js';
import { MongoRegistrationRepository } from '../persistence/registration-repository.js';
import { loadAreas, pointIn } from './bench-world.js';

export interface BBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export interface SeedOptions {
  mongoUrl: string;
  /** STORMHOOK_DB_PREFIX of the matcher that will load them. */
  dbPrefix: string;
  count: number;
  /** No registration centre falls inside this box (keep it clear of what the benchmark measures). */
  exclude?: BBox;
  seed?: number;
}

const inside = (box: BBox | undefined, lng: number, lat: number) =>
  box !== undefined && lng >= box.minLng && lng <= box.maxLng && lat >= box.minLat && lat <= box.maxLat;

/**
 * `count` point alarms with a lightning filter, radius 1 to 10 km, centres uniform over Turkey's
 * land (the shared province boundaries), spread over 997 accounts. Returns how long the insert took.
 */
export async function seedPointAlarms(options: SeedOptions): Promise<{ inserted: number; ms: number }> {
  const random = seeded(options.seed ?? 4242);
  const { provinces } = loadAreas(new Grid());
  const client = new MongoClient(options.mongoUrl);
  const started = Date.now();
  try {
    const repository = new MongoRegistrationRepository(client.db(databaseName('alarm_matcher', options.dbPrefix)));
    let inserted = 0;
    let batch: PointRegistration[] = [];
    for (let i = 0; i < options.count; i++) {
      let lng: number;
      let lat: number;
      do [lng, lat] = pointIn(provinces, random);
      while (inside(options.exclude, lng, lat));
      batch.push({
        registrationId: `seed-${options.dbPrefix}-${i}`,
        accountId: `seed-account-${i % 997}`,
        recipientId: `seed-recipient-${i}`,
        createdAtMs: started,
        updatedAtMs: started,
        version: 1,
        warnings: [],
        kind: 'POINT',
        circle: { point: { lng, lat }, radiusM: 1_000 + Math.round(random() * 9_000) },
        filter: { lightning: {} },
      });
      if (batch.length === 1_000 || i === options.count - 1) {
        inserted += await repository.insertMany(batch);
        batch = [];
      }
    }
    return { inserted, ms: Date.now() - started };
  } finally {
    await client.close();
  }
}
