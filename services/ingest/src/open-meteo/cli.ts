#!/usr/bin/env node
import { createKafkaClient, createPublisher, ensureTopics, kafkaConnectionOf, TopicNames, topicSpec } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { runOpenMeteoAdapter } from './adapter.js';
import { loadOpenMeteoConfig } from './config.js';
import { parseGrid } from './grid.js';

/**
 * The Open-Meteo forecast adapter: fetches forecasts for the configured grid from Open-Meteo (or a
 * self-hosted instance) and publishes them to feed.forecast.v1, every OPEN_METEO_INTERVAL_MS.
 * Configured by environment only (see config.ts); stops cleanly on SIGINT/SIGTERM.
 */
async function main(): Promise<void> {
  const config = loadOpenMeteoConfig();
  const logger = createLogger({ service: 'open-meteo-adapter', level: config.LOG_LEVEL });
  const points = parseGrid(config.OPEN_METEO_GRID);
  const prefix = config.STORMHOOK_TOPIC_PREFIX;
  const kafka = createKafkaClient({ ...kafkaConnectionOf(config), clientId: 'stormhook-open-meteo', logger });
  await ensureTopics(kafka, [topicSpec(TopicNames.FeedForecast)], { ...(prefix ? { prefix } : {}), logger });
  const publisher = createPublisher(kafka, { logger, clientId: 'stormhook-open-meteo', ...(prefix ? { prefix } : {}) });
  await publisher.connect();
  const abort = new AbortController();
  process.once('SIGINT', () => abort.abort());
  process.once('SIGTERM', () => abort.abort());
  logger.info({ baseUrl: config.OPEN_METEO_BASE_URL, points: points.length, model: config.OPEN_METEO_MODEL }, 'open-meteo adapter starting');
  const result = await runOpenMeteoAdapter({
    sink: publisher,
    logger,
    baseUrl: config.OPEN_METEO_BASE_URL,
    apiKey: config.OPEN_METEO_API_KEY,
    points,
    model: config.OPEN_METEO_MODEL,
    forecastDays: config.OPEN_METEO_FORECAST_DAYS,
    locationsPerRequest: config.OPEN_METEO_LOCATIONS_PER_REQUEST,
    timeoutMs: config.OPEN_METEO_TIMEOUT_MS,
    intervalMs: config.OPEN_METEO_INTERVAL_MS,
    signal: abort.signal,
  });
  await publisher.disconnect();
  logger.info(result, 'open-meteo adapter stopped');
  if (result.runs === 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(`open-meteo adapter failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
