import { randomUUID } from 'node:crypto';
import { createClient } from '@stormhook/grpc';
import { replicaName } from '@stormhook/kafka';
import type { Logger } from '@stormhook/logger';
import { geoV1, identityV1, notificationV1, queryV1 } from '@stormhook/proto';
import { internalTokensOf, type Platform } from '@stormhook/service-kit';
import { GrpcEntitlementSource } from './adapters/grpc-entitlement-source.js';
import { GrpcGeoPort } from './adapters/grpc-geo.js';
import { GrpcWeatherHistory } from './adapters/grpc-history.js';
import { GrpcWebhookStore } from './adapters/grpc-webhook-store.js';
import { KafkaAlarmPublisher } from './adapters/kafka-alarm-publisher.js';
import { KafkaRegistrationEvents } from './adapters/kafka-registration-events.js';
import type { Config } from './config.js';
import { ForecastRegistrations } from './forecast/forecast-registrations.js';
import { LatestForecastCells } from './forecast/latest-cells.js';
import { TrackMemory } from './motion/track-memory.js';
import { Grid } from './geometry/grid.js';
import { RegistrationIndex } from './matching/registration-index.js';
import { COLLECTIONS, ensureAlarmIndexes } from './persistence/collections.js';
import { MongoForecastStore } from './persistence/forecast-store.js';
import { MongoJobLock } from './persistence/job-locks.js';
import { MongoLightningActivityStore } from './persistence/lightning-activity-store.js';
import { MongoNotificationLedger } from './persistence/notification-ledger.js';
import { MongoRegistrationRepository } from './persistence/registration-repository.js';
import { MongoSlotLedger } from './persistence/slot-ledger.js';
import { MongoTrackedStateStore } from './persistence/tracked-state-store.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { EntitlementSource } from './ports/entitlement-source.js';
import type { ForecastStore } from './ports/forecast-store.js';
import type { GeoPort } from './ports/geo-port.js';
import type { WeatherHistory } from './ports/weather-history.js';
import type { WebhookStore } from './ports/webhook-store.js';
import { BacktestCommand } from './usecases/backtest/backtest-command.js';
import type { BacktestRunner } from './usecases/backtest/backtest-outcome.js';
import { HistoryBacktest, type HistoryBacktestDeps } from './usecases/backtest/history-backtest.js';
import { EntitlementBook } from './usecases/entitlement/entitlement-book.js';
import { placeResolver } from './usecases/entitlement/registration-place.js';
import { ForecastScheduler } from './usecases/live/scheduler.js';
import { ForecastSlotRunner } from './usecases/live/slot-runner.js';
import { StoreForecast } from './usecases/live/store-forecast.js';
import { Housekeeping } from './usecases/housekeeping.js';
import { AreaShapes } from './usecases/index/area-shapes.js';
import { PropagatingChangeSink } from './usecases/index/change-propagation.js';
import { RegistrationIndexer } from './usecases/index/registration-indexer.js';
import { DEFAULT_DISPATCH_BATCHING, NotificationDispatcher } from './usecases/live/dispatcher.js';
import { LightningEpisodes } from './usecases/live/lightning-episodes.js';
import { LightningMatcher } from './usecases/live/lightning-matcher.js';
import { LifecycleSweeper } from './usecases/live/sweeper.js';
import { TrackedEventMatcher } from './usecases/live/tracked-matcher.js';
import { RegistrationCommands } from './usecases/registrations/registration-commands.js';
import { RegistrationQueries } from './usecases/registrations/registration-queries.js';

/**
 * What the back-test runner is built from: the weather history, geo (area polygons) and the live
 * matchers' settings, so a back-test decides exactly as the live path would.
 */
export type BacktestWiring = HistoryBacktestDeps;

/** Builds the back-test runner from its wiring (tests build theirs; production builds HistoryBacktest). */
export type BacktestRunnerFactory = (wiring: BacktestWiring) => BacktestRunner;

/** What tests and the operator command may replace. */
export interface CompositionOptions {
  clock?: Clock;
  /** Replaces the geo gRPC client. */
  geo?: GeoPort;
  /** Replaces the notifier gRPC client. */
  webhooks?: WebhookStore;
  /** Replaces the identity gRPC client (registration owners' entitlement). */
  entitlements?: EntitlementSource;
  /** Replaces query's weather history client. */
  history?: WeatherHistory;
  /** Builds the back-test runner. */
  backtestRunner?: BacktestRunnerFactory;
}

/** The object graph of the alarm matcher, built by hand on top of a started platform. */
export interface AlarmMatcherParts {
  instanceId: string;
  clock: Clock;
  logger: Logger;
  index: RegistrationIndex;
  /** The forecast alarms, held in memory beside the real-time index. */
  forecastAlarms: ForecastRegistrations;
  /** The latest forecast of every grid cell, held in memory for the slots. */
  forecastCells: LatestForecastCells;
  indexer: RegistrationIndexer;
  /** Whether each registration's account is still entitled; the dispatcher holds back the others. */
  entitlements: EntitlementBook;
  /**
   * Loads what matching and the slots decide from (registrations, forecast alarms, forecast cells)
   * from the database into memory, as a start does; the service calls it after joining the change
   * broadcasts, the operator's slot command before running its slot.
   */
  loadMemory(): Promise<{ loaded: number }>;
  /** Claims and publishes every notification; drained at stop. */
  dispatcher: NotificationDispatcher;
  commands: RegistrationCommands;
  queries: RegistrationQueries;
  /** The back-test of a draft registration. */
  backtests: BacktestCommand;
  lightning: LightningMatcher;
  tracked: TrackedEventMatcher;
  forecast: StoreForecast;
  forecasts: ForecastStore;
  sweeper: LifecycleSweeper;
  slots: ForecastSlotRunner;
  scheduler: ForecastScheduler;
  housekeeping: Housekeeping;
  close(): void;
}

export async function composeAlarmMatcher(platform: Platform, config: Config, opts: CompositionOptions = {}): Promise<AlarmMatcherParts> {
  const { logger, mongo } = platform;
  const db = mongo.db;
  await ensureAlarmIndexes(db, logger);
  const clock = opts.clock ?? systemClock;
  const instanceId = config.ALARM_INSTANCE_ID ?? replicaName();

  // The matcher's own calls carry its service token; the customer it registers for is in the request.
  const tokens = internalTokensOf(config, 'alarm-matcher');
  const geoClient = opts.geo
    ? undefined
    : createClient(geoV1.GeoService, config.GEO_GRPC_ADDRESS, { deadlineMs: config.GRPC_DEADLINE_MS, internalToken: tokens.serviceTokenFor('geo') });
  const notifierClient = opts.webhooks
    ? undefined
    : createClient(notificationV1.NotifierService, config.NOTIFIER_GRPC_ADDRESS, {
        deadlineMs: config.GRPC_DEADLINE_MS,
        internalToken: tokens.serviceTokenFor('notifier'),
      });
  const identityClient = opts.entitlements
    ? undefined
    : createClient(identityV1.IdentityService, config.IDENTITY_GRPC_ADDRESS, {
        deadlineMs: config.GRPC_DEADLINE_MS,
        internalToken: tokens.serviceTokenFor('identity'),
      });
  const historyClient = opts.history
    ? undefined
    : createClient(queryV1.WeatherHistoryService, config.QUERY_GRPC_ADDRESS, {
        deadlineMs: config.GRPC_DEADLINE_MS,
        internalToken: tokens.serviceTokenFor('query'),
      });
  const geo = opts.geo ?? new GrpcGeoPort(geoClient!, config.ALARM_GEO_SIMPLIFY_TOLERANCE_M);
  const webhooks = opts.webhooks ?? new GrpcWebhookStore(notifierClient!);

  const repo = new MongoRegistrationRepository(db);
  const forecasts = new MongoForecastStore(db);
  const ledger = new MongoNotificationLedger(db);
  const states = new MongoTrackedStateStore(db);
  const activity = new MongoLightningActivityStore(db);
  const locks = new MongoJobLock(db, instanceId);

  const grid = new Grid();
  const index = new RegistrationIndex(grid);
  const shapes = new AreaShapes(geo, grid);
  const forecastAlarms = new ForecastRegistrations();
  const forecastCells = new LatestForecastCells();
  const indexer = new RegistrationIndexer(index, forecastAlarms, shapes, repo, logger);
  const owners = opts.entitlements ?? new GrpcEntitlementSource(identityClient!);
  const entitlements = new EntitlementBook({
    source: owners,
    registrations: {
      get: (id) => index.get(id) ?? forecastAlarms.get(id),
      ids: function* () {
        yield* index.ids();
        yield* forecastAlarms.ids();
      },
    },
    placeOf: placeResolver(geo),
    clock,
    logger,
  });
  const changes = new PropagatingChangeSink(indexer, new KafkaRegistrationEvents(platform.publisher), logger);
  const dispatcher = new NotificationDispatcher(
    ledger,
    new KafkaAlarmPublisher(platform.publisher),
    clock,
    logger,
    {
      maxItems: config.ALARM_DISPATCH_BATCH_MAX,
      maxDelayMs: config.ALARM_DISPATCH_BATCH_DELAY_MS,
      maxConcurrentFlushes: DEFAULT_DISPATCH_BATCHING.maxConcurrentFlushes,
    },
    entitlements,
  );

  const registrationDeps = {
    repo,
    geo,
    webhooks,
    owners,
    entitlements,
    forecasts,
    changes,
    clock,
    newId: randomUUID,
    maxCellDistanceM: config.ALARM_FORECAST_CELL_MAX_DISTANCE_M,
  };
  const quietMs = config.ALARM_LIGHTNING_QUIET_PERIOD_MS;
  const backtestWiring: BacktestWiring = {
    history: opts.history ?? new GrpcWeatherHistory(historyClient!),
    geo,
    thunderstormGraceMs: config.ALARM_THUNDERSTORM_GRACE_MS,
    precipitationExpiryMs: config.ALARM_PRECIPITATION_EXPIRY_MS,
    lightningQuietMs: quietMs,
    lightningPersistMs: config.ALARM_LIGHTNING_PERSIST_MS,
    maxEventAgeMs: config.ALARM_MAX_EVENT_AGE_MS,
    sweepIntervalMs: config.ALARM_SWEEP_INTERVAL_MS,
    forecastCellMaxDistanceM: config.ALARM_FORECAST_CELL_MAX_DISTANCE_M,
    forecastRetentionMs: config.ALARM_FORECAST_RETENTION_MS,
  };
  const backtestRunner: BacktestRunner = opts.backtestRunner?.(backtestWiring) ?? new HistoryBacktest(backtestWiring);
  const episodes = new LightningEpisodes(activity, quietMs, config.ALARM_LIGHTNING_PERSIST_MS);
  const ringEpisodes = new LightningEpisodes(new MongoLightningActivityStore(db, COLLECTIONS.lightningApproach), quietMs, config.ALARM_LIGHTNING_PERSIST_MS);
  const slots = new ForecastSlotRunner({
    registrations: forecastAlarms,
    cells: forecastCells,
    slots: new MongoSlotLedger(db),
    shapes,
    dispatcher,
    clock,
    logger,
    instanceId,
    leaseMs: config.ALARM_FORECAST_LEASE_MS,
    lateAfterMs: config.ALARM_FORECAST_LATE_AFTER_MS,
    maxCellDistanceM: config.ALARM_FORECAST_CELL_MAX_DISTANCE_M,
  });
  return {
    instanceId,
    clock,
    logger,
    index,
    forecastAlarms,
    forecastCells,
    indexer,
    entitlements,
    async loadMemory() {
      const [loaded, cells] = await Promise.all([indexer.reconcile(), forecasts.all()]);
      forecastCells.apply(cells);
      return { loaded: loaded.loaded };
    },
    dispatcher,
    commands: new RegistrationCommands(registrationDeps),
    queries: new RegistrationQueries(registrationDeps),
    backtests: new BacktestCommand({ ...registrationDeps, runner: backtestRunner }),
    lightning: new LightningMatcher({
      index,
      episodes,
      ringEpisodes,
      dispatcher,
      clock,
      quietMs,
      maxAgeMs: config.ALARM_MAX_EVENT_AGE_MS,
    }),
    tracked: new TrackedEventMatcher({
      index,
      states,
      dispatcher,
      clock,
      tracks: new TrackMemory(),
      thunderstormGraceMs: config.ALARM_THUNDERSTORM_GRACE_MS,
      precipitationExpiryMs: config.ALARM_PRECIPITATION_EXPIRY_MS,
    }),
    forecast: new StoreForecast(forecasts, clock),
    forecasts,
    sweeper: new LifecycleSweeper({
      index,
      states,
      activity,
      episodes,
      dispatcher,
      clock,
      quietMs,
      logger,
      lock: locks,
      intervalMs: config.ALARM_SWEEP_INTERVAL_MS,
    }),
    slots,
    scheduler: new ForecastScheduler(slots, clock, { intervalMs: config.ALARM_FORECAST_TICK_MS, maxLatenessMs: config.ALARM_FORECAST_MAX_LATENESS_MS, logger }),
    housekeeping: new Housekeeping({
      claims: ledger,
      locks,
      states,
      forecasts,
      cells: forecastCells,
      clock,
      logger,
      notificationRetentionMs: config.ALARM_NOTIFICATION_RETENTION_MS,
      forecastRetentionMs: config.ALARM_FORECAST_RETENTION_MS,
    }),
    close() {
      geoClient?.close();
      identityClient?.close();
      notifierClient?.close();
      historyClient?.close();
    },
  };
}
