import { defineEnv, int, port, str, type ConfigOf } from '@stormhook/config';
import { internalSigningEnv, platformEnv } from '@stormhook/service-kit';
import { rateLimitEnv } from './http/rate-limit-env.js';

/** Everything the gateway reads from its environment, validated once at start. */
const spec = {
  ...platformEnv,
  ...internalSigningEnv('gateway'),
  HTTP_HOST: str({ default: '0.0.0.0', description: 'address the HTTP server binds to' }),
  HTTP_PORT: port({ default: 8080 }),
  HTTP_BODY_LIMIT_BYTES: int({ default: 1024 * 1024, min: 1024, max: 64 * 1024 * 1024 }),
  IDENTITY_GRPC_ADDRESS: str({ default: '127.0.0.1:50051' }),
  GEO_GRPC_ADDRESS: str({ default: '127.0.0.1:50052' }),
  INGEST_GRPC_ADDRESS: str({ default: '127.0.0.1:50053' }),
  QUERY_GRPC_ADDRESS: str({ default: '127.0.0.1:50054' }),
  ALARM_MATCHER_GRPC_ADDRESS: str({ default: '127.0.0.1:50055' }),
  NOTIFIER_GRPC_ADDRESS: str({ default: '127.0.0.1:50056' }),
  /** Deadline of every call to a backing service. */
  GRPC_DEADLINE_MS: int({ default: 10_000, min: 100, max: 120_000 }),
  /**
   * Credit sent as X-Data-Attribution on boundary answers. The default is what the bundled sources
   * (OpenStreetMap via geoBoundaries, Who's On First, Natural Earth) require; an operator importing
   * other boundary data sets the text its licence asks for.
   */
  GEO_DATA_ATTRIBUTION: str({
    default:
      '© OpenStreetMap contributors (ODbL 1.0); boundaries via geoBoundaries (www.geoboundaries.org); ' +
      "neighbourhoods: Who's On First (CC0); Northern Cyprus outline: Made with Natural Earth",
  }),
  /**
   * express `trust proxy`: which peers' X-Forwarded-For entries name the client address used for
   * per-address limits (http/trust-proxy.ts). false: the socket's peer; a hop count; or a list of
   * addresses, CIDRs and the names loopback, linklocal, uniquelocal. The chart sets it with the ingress.
   */
  HTTP_TRUST_PROXY: str({ default: 'false', maxLength: 1000 }),
  /** How long a verified X-API-Key is trusted before identity is asked again (a revoked key works this long). */
  API_KEY_CACHE_TTL_MS: int({ default: 30_000, min: 0, max: 600_000 }),
  /**
   * How often each instance writes its quota and abuse-limit counts and reads the other instances'.
   * Several instances can together exceed a quota by at most instances × calls/s per instance × 2 ×
   * this (abuse limits: see GATEWAY_ABUSE_LOCAL_ALLOWANCE_PERCENT); a crash loses at most this long's counts.
   */
  QUOTA_SYNC_INTERVAL_MS: int({ default: 1_000, min: 100, max: 60_000 }),
  /** How far behind this instance's clock another instance's clock may run without its counts being missed. */
  QUOTA_CLOCK_SKEW_MS: int({ default: 2_000, min: 0, max: 300_000 }),
  /**
   * How long the gateway decides from a user's access snapshot (role, status, subscription) without
   * asking identity again. identity.user-changed.v1 events evict a snapshot at once; this bounds how
   * long a missed event can leave an old state in force: a blocked user is refused within this long.
   */
  ACCESS_SNAPSHOT_TTL_MS: int({ default: 5_000, min: 100, max: 60_000 }),
  /** Told in /v1/health as `dataSource` when the weather is not real, e.g. by the local stack running the feed simulator. */
  STORMHOOK_DATA_SOURCE_NOTICE: str({
    optional: true,
    description: 'a data-source notice for /v1/health (the local stack sets it while the feed simulator runs)',
  }),
  /** How often ended quota windows are deleted from the gateway's database. */
  QUOTA_HOUSEKEEPING_INTERVAL_MS: int({ default: 3_600_000, min: 1_000, max: 86_400_000 }),
  /**
   * GET /v1/stream (issue 25): streams one account may hold open at once on one replica (counted per
   * replica, in memory: with R replicas an account may hold up to R times this).
   */
  GATEWAY_STREAMS_PER_ACCOUNT: int({ default: 3, min: 1, max: 1_000, description: 'weather streams per account open at once on one replica' }),
  /**
   * Events held for one stream beyond what its socket buffers: a client further behind is cut off
   * (end event SLOW_CONSUMER). 2,000 is two seconds of a 1,000 strikes/s storm, under 1 MB per stream.
   */
  GATEWAY_STREAM_BUFFER_EVENTS: int({ default: 2_000, min: 10, max: 1_000_000, description: 'events queued per stream before a slow client is cut off' }),
  /**
   * The same backlog's size: frames of rain areas can be tens of kilobytes, so the event count alone
   * would not bound memory. Counted in characters of the frames (their UTF-8 bytes, but for the
   * occasional Turkish letter). 8 MiB holds a few hundred large rain areas.
   */
  GATEWAY_STREAM_BUFFER_BYTES: int({
    default: 8 * 1024 * 1024,
    min: 64 * 1024,
    max: 1024 * 1024 * 1024,
    description: 'size of the events queued per stream before a slow client is cut off, in bytes',
  }),
  /** A keep-alive comment goes to a stream that was sent nothing this long (proxies close idle connections). */
  GATEWAY_STREAM_KEEPALIVE_MS: int({ default: 15_000, min: 1_000, max: 300_000, description: 'idle time before a keep-alive comment, in milliseconds' }),
  /**
   * A stream ends (MAX_DURATION) this long after it opened and the client reconnects: the plan
   * geography and role are read at open; identity's change events end a changed user's streams at
   * once (ACCESS_CHANGED), and this bounds how long a missed event lets a changed plan or a blocked user stream on.
   */
  GATEWAY_STREAM_MAX_DURATION_MS: int({ default: 1_800_000, min: 10_000, max: 86_400_000, description: 'longest life of one stream, in milliseconds' }),
  /** Simplification of the province outlines stream events are tagged with (as query's QUERY_AREA_SIMPLIFY_TOLERANCE_M). */
  GATEWAY_AREA_SIMPLIFY_TOLERANCE_M: int({
    default: 100,
    min: 0,
    max: 5_000,
    description: 'simplification of the province outlines stream events are tagged with, in metres',
  }),
  ...rateLimitEnv,
};
export const loadConfig = defineEnv(spec);
export type Config = ConfigOf<typeof spec>;
