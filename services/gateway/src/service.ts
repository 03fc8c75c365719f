import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadAreasWithRetry, type AreaIndex } from '@stormhook/access';
import { createClient } from '@stormhook/grpc';
import { DEAD_LETTER_TOPIC, ensureTopics, TopicNames, topicSpec } from '@stormhook/kafka';
import { alarmV1, geoV1, identityV1, notificationV1, queryV1 } from '@stormhook/proto';
import { internalTokensOf, startPlatform, type Platform, type PlatformOptions } from '@stormhook/service-kit';
import { createApp, type Handlers } from './app.js';
import { parseTrustProxy } from './http/trust-proxy.js';
import { alarmHandlers } from './handlers/alarms.js';
import { areaHandlers } from './handlers/areas.js';
import { identityHandlers } from './handlers/identity.js';
import { weatherHandlers } from './handlers/weather.js';
import { deliveryHandlers } from './handlers/deliveries.js';
import { webhookHandlers } from './handlers/webhooks.js';
import { GeoResolutionCache } from './access/geo-resolution-cache.js';
import { AccessSnapshotCache } from './access/snapshot-cache.js';
import { userChangeConsumer } from './access/user-changes.js';
import { accessGuards } from './http/auth.js';
import { AbuseLimits, abuseLimitSettings, LONGEST_ABUSE_WINDOW_MS } from './http/rate-limits.js';
import { internalTokenFor } from './http/internal-caller.js';
import { ApiKeyCache } from './http/auth-api-keys.js';
import { TokenKeySource } from './http/auth-token-keys.js';
import { startQuotaHousekeeping } from './quota/quota-housekeeping.js';
import { QuotaMeter } from './quota/quota-meter.js';
import { ABUSE_COLLECTION, ensureQuotaIndexes, QuotaStore } from './quota/quota-store.js';
import type { Config } from './config.js';
import { withDataSource } from './health/data-source.js';
import { CachedHealth } from './health/cached-health.js';
import { stackHealth } from './health/stack-health.js';
import { streamHandlers, type StreamSettings } from './handlers/stream.js';
import { StreamHub } from './stream/stream-hub.js';
import { STREAM_TOPICS, weatherFeed } from './stream/weather-feed.js';

export interface RunningGateway {
  readonly platform: Platform;
  readonly server: Server;
  /** The port actually bound (tests listen on port 0). */
  readonly port: number;
  stop(): Promise<void>;
}

export interface GatewayStartOptions extends PlatformOptions {
  /**
   * Replaces the handlers of some operations, guards and metering unchanged: tests of cross-cutting
   * behaviour (authentication, quotas) use a stand-in for an operation whose service they do not start.
   */
  handlers?: Handlers;
}

/** Starts the public /v1 HTTP surface. */
export async function start(config: Config, opts: GatewayStartOptions = {}): Promise<RunningGateway> {
  // Every call carries an internal token for its service: the acting customer's inside a handler,
  // signed with the gateway's own private key, the only one whose tokens may carry a customer. Built
  // first: a bad key fails the start at once.
  const tokens = internalTokensOf(config, 'gateway');
  const platform = await startPlatform('gateway', config, opts);
  const clientOptions = (audience: string) => ({ deadlineMs: config.GRPC_DEADLINE_MS, internalToken: internalTokenFor(tokens, audience) });
  const geo = createClient(geoV1.GeoService, config.GEO_GRPC_ADDRESS, clientOptions('geo'));
  const identity = createClient(identityV1.IdentityService, config.IDENTITY_GRPC_ADDRESS, clientOptions('identity'));
  const query = createClient(queryV1.QueryService, config.QUERY_GRPC_ADDRESS, clientOptions('query'));
  const notifier = createClient(notificationV1.NotifierService, config.NOTIFIER_GRPC_ADDRESS, clientOptions('notifier'));
  const alarms = createClient(alarmV1.AlarmMatcherService, config.ALARM_MATCHER_GRPC_ADDRESS, clientOptions('alarm-matcher'));
  const clients = [geo, identity, query, notifier, alarms];
  // Quota counters live in the gateway's own database, shared by every gateway instance.
  const quotaStore = QuotaStore.over(platform.mongo.db);
  // So are the abuse limits' counters, kept apart: their meter learns every counter from its reads.
  const abuseStore = QuotaStore.over(platform.mongo.db, undefined, ABUSE_COLLECTION);
  // Access decisions come from memory: snapshots per user and verified keys, dropped on identity's change events.
  const snapshots = new AccessSnapshotCache(identity, { ttlMs: config.ACCESS_SNAPSHOT_TTL_MS });
  const apiKeys = new ApiKeyCache(identity, { ttlMs: config.API_KEY_CACHE_TTL_MS });
  const prefix = platform.topicPrefix;
  // The weather stream (GET /v1/stream): one consumer for this replica, fanned out in memory.
  const streamSettings: StreamSettings = {
    keepAliveMs: config.GATEWAY_STREAM_KEEPALIVE_MS,
    bufferLimit: config.GATEWAY_STREAM_BUFFER_EVENTS,
    bufferChars: config.GATEWAY_STREAM_BUFFER_BYTES,
    maxDurationMs: config.GATEWAY_STREAM_MAX_DURATION_MS,
    perAccountLimit: config.GATEWAY_STREAMS_PER_ACCOUNT,
  };
  const hub = new StreamHub(streamSettings);
  const changes = userChangeConsumer({
    kafka: platform.kafka,
    publisher: platform.publisher,
    logger: platform.logger,
    ...(prefix ? { prefix } : {}),
    target: {
      evictUser: (userId) => snapshots.evict(userId),
      evictApiKey: (keyId) => apiKeys.evictKey(keyId),
      forgetUnknownKeys: () => apiKeys.forgetUnknown(),
      // Open weather streams were decided under the old access: they end and their clients reconnect.
      accessChanged: (userId, change) => hub.accessChanged(userId, change),
    },
    // Not a health component (/v1/health lists its components in the contract): while the consumer is
    // down, decisions stay correct within ACCESS_SNAPSHOT_TTL_MS, and the consumer logs as an error.
    onAlive: (alive) => {
      // Back from an outage: events were read from the group's committed offset, but start clean anyway.
      if (alive) snapshots.clear();
    },
  });
  let areas: AreaIndex | undefined;
  const feed = weatherFeed({
    kafka: platform.kafka,
    publisher: platform.publisher,
    logger: platform.logger,
    ...(prefix ? { prefix } : {}),
    target: hub,
    areas: () => areas,
  });
  try {
    await ensureQuotaIndexes(platform.mongo.db);
    await ensureQuotaIndexes(platform.mongo.db, ABUSE_COLLECTION);
    await ensureTopics(platform.kafka, [topicSpec(TopicNames.UserChanged), ...STREAM_TOPICS.map(topicSpec), topicSpec(DEAD_LETTER_TOPIC)], {
      ...(prefix ? { prefix } : {}),
      logger: platform.logger,
    });
    // Joined before the first request: a change made after a snapshot is read is then always seen.
    // The two groups join side by side (each join is a few seconds of the broker's rebalance).
    await Promise.all([changes.consumer.start(), feed.consumer.start()]);
  } catch (error) {
    await changes.stop().catch(() => undefined);
    await feed.stop().catch(() => undefined);
    for (const client of clients) client.close();
    await platform.stop();
    throw error;
  }
  // Loaded in the background: identity may still be starting; requests with a token wait for the
  // keys (or get a 503 while identity cannot be reached).
  const tokenKeys = new TokenKeySource(identity, platform.logger);
  void tokenKeys.start();
  // The provinces stream events are tagged with, from geo, which may still be starting: until they
  // are in, restricted callers' streams answer 503 (stream handler).
  const stopping = new AbortController();
  const areasLoaded = loadAreasWithRetry(geo, config.GATEWAY_AREA_SIMPLIFY_TOLERANCE_M, platform.logger, stopping.signal).then((loaded) => {
    areas = loaded;
  });
  const streamTicker = setInterval(() => hub.tick(), 1_000);
  streamTicker.unref();
  const quotaHousekeeping = startQuotaHousekeeping(quotaStore, platform.logger, config.QUOTA_HOUSEKEEPING_INTERVAL_MS);
  const abuseHousekeeping = startQuotaHousekeeping(abuseStore, platform.logger, config.QUOTA_HOUSEKEEPING_INTERVAL_MS);
  const meter = new QuotaMeter(quotaStore, {
    syncIntervalMs: config.QUOTA_SYNC_INTERVAL_MS,
    clockSkewMs: config.QUOTA_CLOCK_SKEW_MS,
    logger: platform.logger,
  });
  meter.start();
  const abuseMeter = new QuotaMeter(abuseStore, {
    syncIntervalMs: config.QUOTA_SYNC_INTERVAL_MS,
    clockSkewMs: config.QUOTA_CLOCK_SKEW_MS,
    learnFromReads: { lookbackMs: LONGEST_ABUSE_WINDOW_MS },
    announcePresence: true,
    logger: platform.logger,
  });
  abuseMeter.start();
  const stopIdentityParts = async () => {
    clearInterval(streamTicker);
    stopping.abort();
    await areasLoaded;
    await feed.stop().catch((error: unknown) => platform.logger.warn({ err: error }, 'weather stream consumer did not stop cleanly'));
    tokenKeys.stop();
    quotaHousekeeping.stop();
    abuseHousekeeping.stop();
    // After the last request: the counts of this process must reach the database before it closes.
    await meter.stop();
    await abuseMeter.stop();
    await changes.stop().catch((error: unknown) => platform.logger.warn({ err: error }, 'user-change consumer did not stop cleanly'));
  };
  const access = accessGuards({
    snapshots,
    geo: new GeoResolutionCache(geo),
    tokenKeys,
    apiKeys,
    meter,
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    logger: platform.logger,
  });
  const limits = new AbuseLimits(abuseLimitSettings(config), abuseMeter);
  const health = stackHealth({
    services: {
      identity: config.IDENTITY_GRPC_ADDRESS,
      geo: config.GEO_GRPC_ADDRESS,
      ingest: config.INGEST_GRPC_ADDRESS,
      query: config.QUERY_GRPC_ADDRESS,
      'alarm-matcher': config.ALARM_MATCHER_GRPC_ADDRESS,
      notifier: config.NOTIFIER_GRPC_ADDRESS,
    },
    dependencies: platform.checks,
  });
  const app = createApp({
    logger: platform.logger,
    bodyLimitBytes: config.HTTP_BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(config.HTTP_TRUST_PROXY),
    handlers: {
      ...areaHandlers({ geo, attribution: config.GEO_DATA_ATTRIBUTION }),
      ...identityHandlers({ identity }),
      ...weatherHandlers({ query }),
      ...webhookHandlers({ notifier, identity }),
      ...deliveryHandlers({ notifier, identity }),
      ...alarmHandlers({ alarms, identity, notifier }),
      ...streamHandlers({ hub, areas: () => areas, settings: streamSettings }),
      ...opts.handlers,
    },
    screen: limits.screen,
    guards: (operation) => [...limits.before(operation), ...access(operation), ...limits.after(operation)],
    health: new CachedHealth(withDataSource(health, config.STORMHOOK_DATA_SOURCE_NOTICE)),
    // Every request authenticates through identity and meters through the database; other services
    // only serve their own routes, which answer 503 while they are down.
    readiness: ['identity', ...Object.keys(platform.checks)],
  });
  const server = createServer(app);
  // Behind a load balancer, idle keep-alive sockets must outlive the balancer's own timeout.
  server.keepAliveTimeout = 65_000;
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.HTTP_PORT, config.HTTP_HOST, () => resolve());
    });
  } catch (error) {
    await stopIdentityParts();
    for (const client of clients) client.close();
    health.close();
    await platform.stop();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  platform.logger.info({ port }, 'HTTP server listening');
  return {
    platform,
    server,
    port,
    async stop() {
      // Stop taking requests, let those in flight finish, then release the platform. Open streams
      // never finish on their own: they are told to reconnect (elsewhere) first.
      hub.closeAll();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      await stopIdentityParts();
      for (const client of clients) client.close();
      health.close();
      await platform.stop();
    },
  };
}
