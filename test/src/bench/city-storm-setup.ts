import { MongoClient } from 'mongodb';
import { Grid, PreparedCircle, PreparedPolygon } from '@stormhook/alarm-matcher';
import { seedPointAlarms } from '@stormhook/alarm-matcher/bench';
import type { MultiPolygon } from '@stormhook/geometry';
import { createClient, testInternalTokens } from '@stormhook/grpc';
import { TopicNames } from '@stormhook/kafka';
import { databaseName } from '@stormhook/mongo';
import { geoV1 } from '@stormhook/proto';
import { Storm, STORM_BOX, STORM_CLEARANCE_DEG, uniformIn, widened } from '../faults/storm.js';
import { STORM_DELIVERY_POLICY } from '../faults/storm-alarms.js';
import { sleep, type World } from '../faults/world.js';
import { ExpectedCallbacks, type StoredFilter, type WatchedRegistration, type WatchedShape } from './city-callbacks.js';
import { seedIstanbul } from './city-registrations.js';
import { CityStormSystem } from './city-storm-system.js';
import type { Istanbul } from './istanbul.js';

/**
 * The city storm's pieces, shared by the benchmark (city-storm-bench.ts) and the multi-replica fault
 * scenario (faults/replicas.ts): the seeded registrations, the storm and every callback it must cause.
 */

/** The strikes the storm publishes (feed.lightning.v1 records built by faults/storm.ts). */
export const CITY_STRIKE = { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -24_000 };

export interface CitySize {
  /** Registrations in İstanbul. */
  city: number;
  /** Lightning point alarms elsewhere in the country, clear of the background strikes' box. */
  elsewhere: number;
}

/**
 * Seeds the registrations straight into the matcher's database (run before the matchers start) and a
 * webhook endpoint per account pointing at the world's receiver; returns a line saying what it did.
 */
export async function seedCityStorm(world: World, mongoUrl: string, size: CitySize, istanbul: Istanbul): Promise<string> {
  const t = Date.now();
  const elsewhere = await seedPointAlarms({
    mongoUrl,
    dbPrefix: world.dbPrefix,
    count: size.elsewhere,
    exclude: widened(STORM_BOX, STORM_CLEARANCE_DEG),
    seed: 2727,
  });
  const city = await seedIstanbul({ mongoUrl, dbPrefix: world.dbPrefix, count: size.city, istanbul });
  const accounts = [...new Set([...city.accountIds, ...Array.from({ length: Math.min(997, size.elsewhere) }, (_, i) => `seed-account-${i}`)])];
  await world.createEndpoints(accounts, STORM_DELIVERY_POLICY);
  return `${elsewhere.inserted.toLocaleString('en')} elsewhere + ${city.inserted.toLocaleString('en')} in İstanbul (${city.mix}) seeded, ${accounts.length} webhook endpoints, in ${((Date.now() - t) / 1000).toFixed(0)} s`;
}

export interface CityStormPlan {
  expected: ExpectedCallbacks;
  system: CityStormSystem;
  cityStrikes: number;
  /** The strike publisher (city strikes among the background), not started. */
  storm: Storm;
}

/** Works out every callback the storm must cause, from the registrations the matcher's database holds. */
export async function planCityStorm(
  world: World,
  mongoUrl: string,
  istanbul: Istanbul,
  storm: { seconds: number; cityRate: number; backgroundRate: number },
): Promise<CityStormPlan> {
  const expected = new ExpectedCallbacks(await watchedAreas(world, mongoUrl));
  const system = new CityStormSystem(storm.seconds, `cs-${Date.now().toString(36)}`);
  const cityStrikes = system.cityStrikes(Math.round(storm.cityRate * storm.seconds), istanbul.box);
  const publisher = new Storm({
    rate: storm.cityRate + storm.backgroundRate,
    seconds: storm.seconds,
    targets: cityStrikes,
    idPrefix: system.runId,
    background: uniformIn(STORM_BOX, 5151),
    publish: async (events) => void (await world.publish(TopicNames.FeedLightning, events)),
  });
  publisher.targetIds.forEach((id, k) => expected.addStrike(id, cityStrikes[k]!.point, CITY_STRIKE));
  expected.addRevisions(system.revisions);
  return { expected, system, cityStrikes: cityStrikes.length, storm: publisher };
}

/**
 * Publishes the tracked revisions (thunderstorm cells, rain areas) at their times from `stormStart`,
 * retrying a refused send for up to 30 s; records each one's publication time in `publishedAt`.
 */
export async function publishRevisions(world: World, system: CityStormSystem, stormStart: number, publishedAt: Map<string, number>): Promise<void> {
  for (const revision of system.revisions) {
    const due = stormStart + revision.atS * 1000;
    if (due > Date.now()) await sleep(due - Date.now());
    for (let attempt = 0; ; attempt++) {
      const at = Date.now();
      const { topic, event } = system.feedRecord(revision, stormStart, at);
      try {
        await world.publish(topic === 'thunderstorm' ? TopicNames.FeedThunderstorm : TopicNames.FeedPrecipitation, [event]);
        publishedAt.set(revision.recordId, at);
        break;
      } catch (error) {
        if (attempt >= 60) throw error;
        await sleep(500);
      }
    }
  }
}

interface StoredRegistration {
  _id: string;
  kind: 'POINT' | 'GEOMETRY';
  circle?: { point: { lng: number; lat: number }; radiusM: number };
  area?: { cityId: number; districtId?: number; neighborhoodId?: number };
  filter: StoredFilter;
}

/**
 * Every registration in the matcher's database with the area it watches, as the matcher prepares it:
 * a PreparedCircle per point alarm, and a PreparedPolygon per district or neighbourhood over the
 * boundary geo serves the matcher (at the matcher's simplification tolerance).
 */
async function watchedAreas(world: World, mongoUrl: string): Promise<Array<{ shape: WatchedShape; registrations: WatchedRegistration[] }>> {
  const client = new MongoClient(mongoUrl);
  let docs: StoredRegistration[];
  try {
    docs = await client
      .db(databaseName('alarm_matcher', world.dbPrefix))
      .collection<StoredRegistration>('registrations')
      .find({}, { projection: { _id: 1, kind: 1, circle: 1, area: 1, filter: 1 } })
      .toArray();
  } finally {
    await client.close();
  }
  const groups: Array<{ shape: WatchedShape; registrations: WatchedRegistration[] }> = [];
  const byArea = new Map<string, WatchedRegistration[]>();
  for (const doc of docs) {
    const registration = { registrationId: doc._id, filter: doc.filter };
    if (doc.kind === 'POINT' && doc.circle) {
      groups.push({ shape: new PreparedCircle([doc.circle.point.lng, doc.circle.point.lat], doc.circle.radiusM), registrations: [registration] });
    } else if (doc.kind === 'GEOMETRY' && doc.area) {
      const key = doc.area.neighborhoodId !== undefined ? `AREA_LEVEL_NEIGHBOURHOOD:${doc.area.neighborhoodId}` : `AREA_LEVEL_DISTRICT:${doc.area.districtId}`;
      const list = byArea.get(key);
      if (list) list.push(registration);
      else byArea.set(key, [registration]);
    } else {
      throw new Error(`registration ${doc._id} is neither a point nor a district or neighbourhood alarm`);
    }
  }
  const geo = createClient(geoV1.GeoService, world.geoAddress, {
    deadlineMs: 60_000,
    internalToken: testInternalTokens('alarm-matcher').serviceTokenFor('geo'),
  });
  const grid = new Grid();
  try {
    const keys = [...byArea.keys()];
    for (let i = 0; i < keys.length; i += 500) {
      const batch = keys.slice(i, i + 500).map((key) => {
        const [level, id] = key.split(':');
        return { level: level as geoV1.AreaLevel, id: Number(id) };
      });
      const answer = await geo.getPolygons({ areas: batch, simplifyToleranceM: world.matcherConfig().ALARM_GEO_SIMPLIFY_TOLERANCE_M });
      for (const area of answer.areas) {
        const multi: MultiPolygon = (area.geometry?.polygons ?? []).flatMap((p) => {
          const ring = (p.exterior?.points ?? []).map((q) => [q.lng, q.lat] as const);
          return ring.length < 4
            ? []
            : [{ exterior: ring, holes: p.holes.map((h) => h.points.map((q) => [q.lng, q.lat] as const)).filter((h) => h.length >= 4) }];
        });
        const key = `${area.area!.level}:${area.area!.id}`;
        if (multi.length === 0) throw new Error(`geo has no boundary for ${key}`);
        groups.push({ shape: new PreparedPolygon(multi, grid), registrations: byArea.get(key)! });
        byArea.delete(key);
      }
    }
  } finally {
    geo.close();
  }
  if (byArea.size > 0) throw new Error(`geo did not answer for ${byArea.size} areas, e.g. ${[...byArea.keys()][0]}`);
  return groups;
}
