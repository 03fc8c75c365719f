import {
  consumerGroupId,
  createChannelConsumer,
  DEAD_LETTER_TOPIC,
  deleteReplicaGroups,
  ensureTopics,
  replicaGroup,
  TopicNames,
  topicSpec,
  type ChannelConsumerOptions,
  type ChannelHandlers,
  type ChannelName,
  type EventConsumer,
  type TopicName,
} from '@stormhook/kafka';
import { alarmV1 } from '@stormhook/proto';
import { startGrpcService, type PlatformOptions, type RunningGrpcService } from '@stormhook/service-kit';
import { composeAlarmMatcher, type AlarmMatcherParts, type CompositionOptions } from './compose.js';
import type { Config } from './config.js';
import { repeat, type Repeating } from './repeat.js';
import { alarmMatcherHandlers } from './transport/grpc-handlers.js';
import { forecastCellsHandlers } from './transport/forecast-cells-consumer.js';
import { registrationChangeHandlers } from './transport/registration-consumer.js';
import { userChangeHandlers } from './transport/user-change-consumer.js';
import { WEATHER_CHANNELS, weatherHandlers } from './transport/weather-consumer.js';

export interface AlarmMatcherOptions extends PlatformOptions, CompositionOptions {
  /**
   * Background jobs (forecast scheduler, lifecycle sweeper, reconciliation, housekeeping); default
   * true. Tests that drive them by hand through `matcher` turn them off.
   */
  backgroundJobs?: boolean;
}

export interface RunningAlarmMatcher extends RunningGrpcService {
  /** The object graph, for tests and the operator command. */
  readonly matcher: AlarmMatcherParts;
}

/** Every topic the matcher reads or writes, created at start when missing. */
const OWN_TOPICS: readonly TopicName[] = [
  ...WEATHER_CHANNELS,
  TopicNames.RegistrationChanged,
  TopicNames.AlarmTriggered,
  TopicNames.UserChanged,
  DEAD_LETTER_TOPIC,
];

/** The weather consumer group id on the broker (tools and tests look it up). */
export function weatherConsumerGroup(config: Config): string {
  return consumerGroupId(config.ALARM_CONSUMER_GROUP, config.STORMHOOK_TOPIC_PREFIX);
}

/**
 * Starts the alarm-matcher: the registration API (stormhook.alarm.v1.AlarmMatcherService), the
 * in-memory index of every geometry and point registration (loaded from the database, kept current
 * by the alarm.registration-changed.v1 broadcast that each instance reads with a group of its own;
 * forecast alarms and the latest forecast cells likewise, the cells from weather.forecast.v1),
 * real-time matching of the weather topics (one shared group, partitions by area), and the forecast
 * slots at 04:00 and 16:00 UTC. Health is SERVING while Kafka, the database and the three consumers are up.
 */
export async function start(config: Config, opts: AlarmMatcherOptions = {}): Promise<RunningAlarmMatcher> {
  let parts: AlarmMatcherParts | undefined;
  const running = await startGrpcService(
    'alarm-matcher',
    config,
    async (platform, server) => {
      const { logger, kafka, publisher } = platform;
      const prefix = platform.topicPrefix;
      const prefixOption = prefix ? { prefix } : {};
      await ensureTopics(kafka, OWN_TOPICS.map(topicSpec), { ...prefixOption, logger });
      const matcher = await composeAlarmMatcher(platform, config, opts);
      parts = matcher;

      const alive = { registrations: true, forecastCells: true, userChanges: true, weather: true };
      // Everything of a consumer but its channels and what all three share.
      type Own = Omit<ChannelConsumerOptions<ChannelName>, 'handlers' | 'kafka' | 'publisher' | 'logger' | 'prefix' | 'onFatal' | 'onRecovered'>;
      const consumer = <N extends ChannelName>(name: keyof typeof alive, handlers: ChannelHandlers<N>, own: Own): EventConsumer =>
        createChannelConsumer<N>({
          kafka,
          publisher,
          logger,
          ...prefixOption,
          ...own,
          handlers,
          onFatal: (error) => {
            alive[name] = false;
            logger.error({ err: error, consumer: name }, 'alarm-matcher consumer down; health reports NOT_SERVING until it rejoins');
          },
          onRecovered: () => {
            alive[name] = true;
          },
        });
      const group = config.ALARM_CONSUMER_GROUP;
      // A group per instance: every instance must see every change (a broadcast, not a work queue).
      const registrations = consumer('registrations', registrationChangeHandlers(matcher.indexer), {
        group: replicaGroup(group, 'registrations', matcher.instanceId),
        fromBeginning: false,
      });
      // Likewise every forecast chunk, so each instance holds every cell a slot may need. Records
      // that fail the channel checks are skipped: the weather group dead-letters them once already.
      const forecastCells = consumer('forecastCells', forecastCellsHandlers(matcher.forecastCells), {
        group: replicaGroup(group, 'forecast-cells', matcher.instanceId),
        fromBeginning: false,
        onMismatch: 'skip',
      });
      // Likewise every user change: each instance holds the entitlements of every registration.
      const userChanges = consumer('userChanges', userChangeHandlers(matcher.entitlements), {
        group: replicaGroup(group, 'user-changes', matcher.instanceId),
        fromBeginning: false,
        // A suspension must take effect within about a second: fetch often (the topic is tiny).
        tuning: { maxWaitTimeInMs: 100 },
      });
      const weather = consumer('weather', weatherHandlers(matcher), {
        group,
        partitionsConsumedConcurrently: config.ALARM_PARTITIONS_CONCURRENTLY,
        // Records of different areas run at once so their claims and publishes share batches; one
        // area's records keep their order (lightning needs none; storm revisions are also serialised
        // per event by the tracked matcher).
        recordsInFlight: config.ALARM_RECORDS_IN_FLIGHT,
      });
      platform.checks['registration-consumer'] = async () => alive.registrations;
      platform.checks['forecast-cells-consumer'] = async () => alive.forecastCells;
      platform.checks['weather-consumer'] = async () => alive.weather;
      platform.checks['user-change-consumer'] = async () => alive.userChanges;

      const jobs: Repeating[] = [];
      const stop = async () => {
        await Promise.all(jobs.map((job) => job.stop()));
        await matcher.scheduler.stop();
        await weather.stop();
        await matcher.dispatcher.drain();
        await Promise.all([registrations.stop(), forecastCells.stop(), userChanges.stop()]);
        await deleteReplicaGroups(
          kafka,
          [registrations, forecastCells, userChanges].map(({ groupId }) => groupId),
          logger,
        );
        matcher.close();
      };
      try {
        // Join the broadcasts first, then load: a change made while loading is then consumed, not lost.
        await Promise.all([registrations.start(), forecastCells.start(), userChanges.start()]);
        const loaded = await matcher.loadMemory();
        // The owners' entitlements before the first weather record, so nothing leaves for an account
        // suspended while this instance was down. Identity unreachable: logged, retried by the refresh.
        const owners = await matcher.entitlements.refresh();
        void matcher.entitlements
          .locateAll()
          .catch((error: unknown) => logger.warn({ err: error }, 'registration places not resolved; retried by the refresh'));
        logger.info(
          {
            registrations: matcher.index.size,
            areas: matcher.index.areaCount,
            forecastAlarms: matcher.forecastAlarms.size,
            forecastCells: matcher.forecastCells.size,
            loaded: loaded.loaded,
            owners: owners.accounts,
            ownersNotRead: owners.failed,
          },
          'registration index loaded',
        );
        await weather.start();
      } catch (error) {
        await stop();
        throw error;
      }

      server.add(
        alarmV1.AlarmMatcherService,
        alarmMatcherHandlers({
          commands: matcher.commands,
          queries: matcher.queries,
          slots: matcher.slots,
          backtests: matcher.backtests,
          clock: matcher.clock,
        }),
      );

      if (opts.backgroundJobs ?? true) {
        matcher.scheduler.start();
        jobs.push(repeat('lifecycle-sweep', config.ALARM_SWEEP_INTERVAL_MS, () => matcher.sweeper.sweep(), logger));
        jobs.push(
          repeat(
            'entitlement-refresh',
            config.ALARM_ENTITLEMENT_REFRESH_MS,
            async () => {
              await matcher.entitlements.refresh();
              await matcher.entitlements.locateAll();
            },
            logger,
          ),
        );
        jobs.push(repeat('index-reconcile', config.ALARM_RECONCILE_INTERVAL_MS, () => matcher.indexer.reconcile(), logger));
        // Geometry alarms whose boundary geo could not give wait in memory; they need no database read.
        jobs.push(repeat('index-pending-boundaries', config.ALARM_PENDING_RETRY_MS, () => matcher.indexer.retryPending(), logger));
        jobs.push(repeat('housekeeping', config.ALARM_HOUSEKEEPING_INTERVAL_MS, () => matcher.housekeeping.run(), logger));
      }
      return { stop };
    },
    opts,
  );
  if (!parts) throw new Error('alarm-matcher started without its parts');
  return { ...running, stop: () => running.stop(), matcher: parts };
}
