export { start, weatherConsumerGroup, type AlarmMatcherOptions, type RunningAlarmMatcher } from './service.js';
export { loadConfig, type Config } from './config.js';
export { composeAlarmMatcher, type AlarmMatcherParts, type CompositionOptions } from './compose.js';
export type { Clock } from './ports/clock.js';
/** The matcher's point-alarm disc, for the agreement test with the query's crop (test/src/geometry). */
export { PreparedCircle } from './geometry/prepared-circle.js';
