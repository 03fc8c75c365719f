export { start, consumerGroup, historyConsumerGroup, type QueryOptions } from './service.js';
export { newHistoryCounters, type HistoryCounters } from './history/transport/history-consumer.js';
export { loadConfig, type Config } from './config.js';
export { newWeatherCounters, type WeatherCounters } from './transport/weather-consumer.js';
export type { Maintenance, RetentionResult } from './usecases/retention.js';
export { cropToCircle } from './geometry/circle-clip.js';
export { timezoneAt } from './forecast/timezone.js';
