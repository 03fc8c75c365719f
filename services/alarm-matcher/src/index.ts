export { start, weatherConsumerGroup, type AlarmMatcherOptions, type RunningAlarmMatcher } from './service.js';
export { loadConfig, type Config } from './config.js';
export { composeAlarmMatcher, type AlarmMatcherParts, type CompositionOptions } from './compose.js';
export type { Clock } from './ports/clock.js';
