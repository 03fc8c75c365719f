import { MongoClient } from 'mongodb';
import { seedPointAlarms } from '@stormhook/alarm-matcher/bench';
import { databaseName } from '@stormhook/mongo';
import { STORM_BOX, STORM_CLEARANCE_DEG, widened, type Point } from './storm.js';
import type { World } from './world.js';

/** A point alarm seeded into the matcher's database; the storm strikes its centre once. */
export interface StormAlarm {
  registrationId: string;
  accountId: string;
  point: Point;
}

/** Retry rules of the seeded accounts' endpoints: quick retries, so a scenario's retries finish in its time. */
export const STORM_DELIVERY_POLICY = { timeoutMs: 4_000, maxRetries: 8, retryDelaySeconds: 2 };

/**
 * Seeds `count` lightning point alarms (1-10 km, clear of the storm box) into the matcher database of
 * `world`, as the e2e benchmark does: through `@stormhook/alarm-matcher/bench`, in the repository's
 * own stored form, so a matcher started afterwards loads them as in production. Their centres are
 * read back (a strike at each must cause one webhook), and every account they belong to gets a
 * webhook endpoint on the notifier pointing at the world's receiver. Call it before the matchers
 * start (World.start's `beforeMatchers`).
 */
export async function seedStormAlarms(world: World, mongoUrl: string, count: number, seed = 1818): Promise<{ alarms: StormAlarm[]; ms: number }> {
  const started = Date.now();
  const seeded = await seedPointAlarms({ mongoUrl, dbPrefix: world.dbPrefix, count, exclude: widened(STORM_BOX, STORM_CLEARANCE_DEG), seed });
  if (seeded.inserted !== count) throw new Error(`seeded ${seeded.inserted} of ${count} alarms`);
  const client = new MongoClient(mongoUrl);
  let alarms: StormAlarm[];
  try {
    // Read back, not recomputed: the seeder owns where its points fall.
    const docs = await client
      .db(databaseName('alarm_matcher', world.dbPrefix))
      .collection<{ _id: string; accountId: string; circle?: { point?: Point } }>('registrations')
      .find({}, { projection: { _id: 1, accountId: 1, circle: 1 } })
      .toArray();
    alarms = docs
      .filter((d) => d.circle?.point)
      .map((d) => ({ registrationId: d._id, accountId: d.accountId, point: { lat: d.circle!.point!.lat, lng: d.circle!.point!.lng } }));
  } finally {
    await client.close();
  }
  if (alarms.length !== count) throw new Error(`read back ${alarms.length} of ${count} seeded alarms`);
  await world.createEndpoints([...new Set(alarms.map((a) => a.accountId))], STORM_DELIVERY_POLICY);
  // Sorted by id, so the order strikes reach them does not follow the database's.
  alarms.sort((a, b) => a.registrationId.localeCompare(b.registrationId));
  return { alarms, ms: Date.now() - started };
}
