import { defineEnv, int, str, url, type ConfigOf, type EnvSource } from '@stormhook/config';
import { kafkaLoginEnv, platformEnv } from '@stormhook/service-kit';

const spec = {
  KAFKA_BROKERS: platformEnv.KAFKA_BROKERS,
  ...kafkaLoginEnv(),
  STORMHOOK_TOPIC_PREFIX: platformEnv.STORMHOOK_TOPIC_PREFIX,
  LOG_LEVEL: platformEnv.LOG_LEVEL,
  OPEN_METEO_BASE_URL: url({
    default: 'https://api.open-meteo.com',
    protocols: ['http', 'https'],
    description: 'Open-Meteo or a self-hosted instance; /v1/forecast is appended',
  }),
  OPEN_METEO_API_KEY: str({ optional: true, secret: true, description: 'for the commercial API, sent as apikey' }),
  OPEN_METEO_GRID: str({
    default: '26,36,45,42:0.5',
    description: 'minLng,minLat,maxLng,maxLat:step (degrees) or lat,lng;lat,lng;... explicit points',
  }),
  OPEN_METEO_MODEL: str({ default: 'best_match', pattern: '^[A-Za-z0-9_.-]{1,50}$', description: 'Open-Meteo model name' }),
  OPEN_METEO_FORECAST_DAYS: int({ default: 7, min: 1, max: 16, description: 'forecast horizon in days' }),
  OPEN_METEO_LOCATIONS_PER_REQUEST: int({ default: 50, min: 1, max: 1000, description: 'grid points per HTTP request' }),
  OPEN_METEO_TIMEOUT_MS: int({ default: 30_000, min: 100, description: 'HTTP timeout per request, in milliseconds' }),
  OPEN_METEO_INTERVAL_MS: int({ default: 3 * 3_600_000, min: 0, description: 'time between runs in milliseconds; 0 = fetch once' }),
};

export type OpenMeteoConfig = ConfigOf<typeof spec>;
const load = defineEnv(spec);

export function loadOpenMeteoConfig(env: EnvSource = process.env): OpenMeteoConfig {
  return load(env);
}
