import { defineEnv, int, str, type ConfigOf } from '@stormhook/config';
import { grpcEnv, internalSigningEnv, platformEnv } from '@stormhook/service-kit';

const SECOND = 1_000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Everything the alarm-matcher service reads from its environment, validated once at start. */
const spec = {
  ...platformEnv,
  ...grpcEnv(50055),
  ...internalSigningEnv('alarm-matcher'),
  GEO_GRPC_ADDRESS: str({ default: '127.0.0.1:50052', description: 'geo service: boundary checks and area polygons' }),
  NOTIFIER_GRPC_ADDRESS: str({ default: '127.0.0.1:50056', description: "notifier service: the account's stored webhook" }),
  QUERY_GRPC_ADDRESS: str({ default: '127.0.0.1:50054', description: 'query service: the weather history that back-tests run over' }),
  IDENTITY_GRPC_ADDRESS: str({
    default: '127.0.0.1:50051',
    description: "identity service: the account owner's status and subscription (entitlement of registrations)",
  }),
  GRPC_DEADLINE_MS: int({ default: 5_000, min: 100, max: 60_000, description: 'deadline of calls to other services, in milliseconds' }),
  ALARM_CONSUMER_GROUP: str({
    default: 'stormhook-alarm-matcher',
    pattern: '^[A-Za-z0-9._-]{1,180}$',
    description: 'consumer group of the weather topics (shared by all instances); the topic prefix, when set, is put in front',
  }),
  ALARM_INSTANCE_ID: str({
    optional: true,
    pattern: '^[A-Za-z0-9._-]{1,100}$',
    description: 'names this instance in slot claims and its registration broadcast group; default hostname-pid-random',
  }),
  ALARM_PARTITIONS_CONCURRENTLY: int({ default: 3, min: 1, max: 64, description: 'weather partitions processed in parallel' }),
  ALARM_RECORDS_IN_FLIGHT: int({
    default: 32,
    min: 1,
    max: 1_000,
    description: 'weather records of one partition handled at once when their keys (areas) differ; records of one key keep their order',
  }),
  ALARM_DISPATCH_BATCH_MAX: int({
    default: 500,
    min: 1,
    max: 5_000,
    description: 'notifications per ledger claim (one insertMany) and per publish on alarm.triggered.v1',
  }),
  ALARM_DISPATCH_BATCH_DELAY_MS: int({
    default: 2,
    min: 0,
    max: 1_000,
    description: 'how long the first notification of a partial batch waits for others before it is claimed and published, in milliseconds',
  }),
  ALARM_LIGHTNING_QUIET_PERIOD_MS: int({
    default: 30 * MINUTE,
    min: SECOND,
    max: DAY,
    description: 'lightning all-clear after this long without a matching strike, in milliseconds',
  }),
  ALARM_MAX_EVENT_AGE_MS: int({
    default: 2 * HOUR,
    min: MINUTE,
    max: 7 * DAY,
    description: 'lightning older than this (a backlog, a first start reading the topic history) is not notified, in milliseconds',
  }),
  ALARM_LIGHTNING_PERSIST_MS: int({
    default: MINUTE,
    min: 0,
    max: 10 * MINUTE,
    description:
      'a lightning episode is written to the database at most this often per registration; its all-clear waits this much longer than the quiet period, in milliseconds',
  }),
  ALARM_THUNDERSTORM_GRACE_MS: int({
    default: 10 * MINUTE,
    min: 0,
    max: DAY,
    description: 'a storm not updated this long after its end is over (END, EXPIRED), in milliseconds',
  }),
  ALARM_PRECIPITATION_EXPIRY_MS: int({
    default: 30 * MINUTE,
    min: SECOND,
    max: DAY,
    description: 'a precipitation area not updated this long after its scan is over (END, EXPIRED), in milliseconds',
  }),
  ALARM_SWEEP_INTERVAL_MS: int({ default: 30 * SECOND, min: 50, max: HOUR, description: 'how often expiries and all-clears are looked for, in milliseconds' }),
  ALARM_ENTITLEMENT_REFRESH_MS: int({
    default: 5 * MINUTE,
    min: SECOND,
    max: DAY,
    description:
      'how often every registration owner is read again from identity, in milliseconds; bounds how long a lost identity.user-changed.v1 event leaves a suspension undone or missed',
  }),
  /**
   * The repair of a lost alarm.registration-changed.v1 broadcast (one whose publish failed after the
   * write: Kafka down). A full read of the registrations, which on FerretDB takes its core for about a
   * minute at 100,000 (city-storm bench): 30 minutes, not 5, so it is not a fifth of the database's time.
   */
  ALARM_RECONCILE_INTERVAL_MS: int({
    default: 30 * MINUTE,
    min: SECOND,
    max: DAY,
    description: 'how often the in-memory index is reconciled with the database, in milliseconds',
  }),
  ALARM_PENDING_RETRY_MS: int({
    default: MINUTE,
    min: 50,
    max: HOUR,
    description: 'how often geometry alarms waiting for their boundary (geo did not answer) are tried again, in milliseconds',
  }),
  ALARM_FORECAST_TICK_MS: int({ default: 30 * SECOND, min: 50, max: HOUR, description: 'how often due forecast slots are looked for, in milliseconds' }),
  ALARM_FORECAST_LATE_AFTER_MS: int({
    default: 10 * MINUTE,
    min: 0,
    max: DAY,
    description: 'a slot evaluated later than this after 04:00/16:00 UTC is marked late, in milliseconds',
  }),
  ALARM_FORECAST_MAX_LATENESS_MS: int({
    default: 12 * HOUR,
    min: MINUTE,
    max: DAY,
    description: 'a missed slot older than this is not caught up, in milliseconds',
  }),
  ALARM_FORECAST_LEASE_MS: int({
    default: 10 * MINUTE,
    min: SECOND,
    max: DAY,
    description: 'after this long an unfinished slot evaluation may be taken over, in milliseconds',
  }),
  ALARM_FORECAST_CELL_MAX_DISTANCE_M: int({ default: 50_000, min: 1_000, max: 200_000, description: 'farthest forecast grid cell a point may use, in metres' }),
  ALARM_FORECAST_RETENTION_MS: int({
    default: 12 * HOUR,
    min: HOUR,
    max: 30 * DAY,
    description: 'forecast runs issued this long before the newest (superseded runs) are purged, in milliseconds',
  }),
  ALARM_GEO_SIMPLIFY_TOLERANCE_M: int({ default: 25, min: 0, max: 1_000, description: 'simplification of the area boundaries matched against, in metres' }),
  ALARM_NOTIFICATION_RETENTION_MS: int({
    default: 8 * DAY,
    min: HOUR,
    max: 90 * DAY,
    description: 'how long notification ids are remembered against replays (longer than weather topic retention), in milliseconds',
  }),
  ALARM_HOUSEKEEPING_INTERVAL_MS: int({
    default: HOUR,
    min: SECOND,
    max: DAY,
    description: 'how often old claims, states and forecast cells are purged, in milliseconds',
  }),
};
export const loadConfig = defineEnv(spec);
export type Config = ConfigOf<typeof spec>;
