#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { defineEnv } from '@stormhook/config';
import { createKafkaClient, createPublisher, ensureTopics, kafkaConnectionOf, topicSpec, type EventToPublish, type TopicName } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { kafkaLoginEnv, platformEnv } from '@stormhook/service-kit';
import { FEED_ROUTES } from '../usecases/weather-topics.js';
import { ANKARA, MAX_MOTION_NOISE, parseBBox, parseDuration, parseLngLat, parseMotionNoise, POLATLI, TURKEY } from './options.js';
import { runSimulator, type FeedSink } from './run.js';

const USAGE = `Stormhook feed simulator: synthetic weather over Turkey on the raw feed topics.

  node services/ingest/dist/sim/cli.js [options]

  --seed N              random seed (default 1); the same seed gives the same weather for the same times
  --duration D          simulated time to publish, e.g. 30m, 2h, 1d (default: run until stopped)
  --rate X              simulated seconds per real second while publishing the past, 0 = as fast as
                        possible (default); never ahead of real time, so a run without --duration
                        goes on live once it reaches now
  --start T             first simulated instant, ISO 8601 or epoch ms (default: now minus duration, or minus backfill)
  --backfill D          when running until stopped: recent weather published at once first (default 30m)
  --storms N            mean storm systems alive at once (default 4)
  --region W,S,E,N      box in decimal degrees (default ${TURKEY.minLng},${TURKEY.minLat},${TURKEY.maxLng},${TURKEY.maxLat})
  --lightning-scale X   multiplies every flash rate (default 1)
  --motion-noise X      how much storms wander off a straight line, 0 to ${MAX_MOTION_NOISE}: 1 = sized from
                        published nowcast errors, 0 = straight at constant speed (default 1)
  --demo-storm LNG,LAT  keep a thunderstorm with lightning over this place in every season
                        ("ankara" = ${ANKARA.lng},${ANKARA.lat}; default none)
  --demo-approach LNG,LAT  a small fast cell every 90 s heading straight for this place, scanned
                        every minute: an alarm there with a warning stage hears one coming
                        ("polatli" = ${POLATLI.lng},${POLATLI.lat}; default none)
  --forecast-every D    a forecast run every D, aligned on UTC (default 6h)
  --forecast-days N     forecast horizon in days, 1 to 14 (default 7)
  --grid DEG            forecast grid spacing in degrees (default 0.5)
  --no-forecast         no forecast runs
  --dry-run             generate and count, publish nothing
  --help

Environment: KAFKA_BROKERS (default 127.0.0.1:9092), KAFKA_USERNAME and KAFKA_PASSWORD (a principal that may write feed.*,
npm run feed:sim passes the local stack's publisher), KAFKA_TLS, STORMHOOK_TOPIC_PREFIX, LOG_LEVEL.`;

const env = defineEnv({
  KAFKA_BROKERS: platformEnv.KAFKA_BROKERS,
  ...kafkaLoginEnv(),
  STORMHOOK_TOPIC_PREFIX: platformEnv.STORMHOOK_TOPIC_PREFIX,
  LOG_LEVEL: platformEnv.LOG_LEVEL,
});

function number(text: string | undefined, name: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`--${name} must be a number, got "${text}"`);
  return value;
}

function instant(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(value)) throw new Error(`--start must be ISO 8601 or epoch milliseconds, got "${text}"`);
  return value;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      rate: { type: 'string' },
      duration: { type: 'string' },
      start: { type: 'string' },
      backfill: { type: 'string' },
      storms: { type: 'string' },
      region: { type: 'string' },
      'lightning-scale': { type: 'string' },
      'motion-noise': { type: 'string' },
      'demo-storm': { type: 'string' },
      'demo-approach': { type: 'string' },
      'forecast-every': { type: 'string' },
      'forecast-days': { type: 'string' },
      grid: { type: 'string' },
      'no-forecast': { type: 'boolean' },
      'dry-run': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const config = env();
  const logger = createLogger({ service: 'feed-sim', level: config.LOG_LEVEL });
  const days = number(values['forecast-days'], 'forecast-days');
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > 14)) throw new Error('--forecast-days must be 1 to 14');
  const motionNoise = values['motion-noise'] === undefined ? undefined : parseMotionNoise(values['motion-noise']);

  const prefix = config.STORMHOOK_TOPIC_PREFIX;
  let sink: FeedSink;
  let close = async () => {};
  if (values['dry-run']) {
    sink = { publish: async (_topic: TopicName, events: readonly EventToPublish[]) => ({ eventIds: events.map(() => '') }) };
  } else {
    const kafka = createKafkaClient({ ...kafkaConnectionOf(config), clientId: 'stormhook-feed-sim', logger });
    await ensureTopics(
      kafka,
      Object.values(FEED_ROUTES).map((route) => topicSpec(route.feed)),
      { ...(prefix ? { prefix } : {}), logger },
    );
    const publisher = createPublisher(kafka, { logger, clientId: 'stormhook-feed-sim', ...(prefix ? { prefix } : {}) });
    await publisher.connect();
    sink = publisher;
    close = () => publisher.disconnect();
  }

  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  const seed = number(values.seed, 'seed') ?? 1;
  const everyMs = values['forecast-every'] ? parseDuration(values['forecast-every']) : undefined;
  const grid = number(values.grid, 'grid');
  let lastLog = 0;
  const durationMs = values.duration ? parseDuration(values.duration) : undefined;
  const startMs = instant(values.start);
  const backfillMs = values.backfill ? parseDuration(values.backfill) : undefined;
  const rate = number(values.rate, 'rate');
  const storms = number(values.storms, 'storms');
  const lightningScale = number(values['lightning-scale'], 'lightning-scale');
  const demoText = values['demo-storm'];
  const demoStorm = demoText === undefined ? undefined : demoText.toLowerCase() === 'ankara' ? ANKARA : parseLngLat(demoText, 'demo-storm');
  const approachText = values['demo-approach'];
  const demoApproach = approachText === undefined ? undefined : approachText.toLowerCase() === 'polatli' ? POLATLI : parseLngLat(approachText, 'demo-approach');
  const summary = await runSimulator({
    sink,
    sim: {
      seed,
      ...(values.region ? { region: parseBBox(values.region) } : {}),
      ...(storms !== undefined ? { storms } : {}),
      ...(lightningScale !== undefined ? { lightningScale } : {}),
      ...(motionNoise !== undefined ? { motionNoise } : {}),
      ...(demoStorm ? { demoStorm } : {}),
      ...(demoApproach ? { demoApproach } : {}),
      forecast: {
        ...(values['no-forecast'] ? { enabled: false } : {}),
        ...(everyMs !== undefined ? { everyMs } : {}),
        ...(days !== undefined ? { days } : {}),
        ...(grid !== undefined ? { gridDeg: grid } : {}),
      },
    },
    ...(rate !== undefined ? { rate } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(startMs !== undefined ? { startMs } : {}),
    ...(backfillMs !== undefined ? { backfillMs } : {}),
    signal: abort.signal,
    onTick: ({ timeMs }) => {
      if (Date.now() - lastLog > 10_000) {
        lastLog = Date.now();
        logger.info({ simulatedTime: new Date(timeMs).toISOString() }, 'simulating');
      }
    },
  });
  await close();
  logger.info(
    {
      seed,
      from: new Date(summary.fromMs).toISOString(),
      to: new Date(summary.toMs).toISOString(),
      ticks: summary.ticks,
      records: summary.records,
      bytes: summary.bytes,
      dryRun: values['dry-run'] === true,
    },
    'feed simulator finished',
  );
}

main().catch((error: unknown) => {
  console.error(`feed simulator failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
