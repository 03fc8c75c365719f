export { start, weatherConsumerGroup, type AlarmMatcherOptions, type RunningAlarmMatcher } from './service.js';
export { loadConfig, type Config } from './config.js';
export { composeAlarmMatcher, type AlarmMatcherParts, type CompositionOptions } from './compose.js';
export type { Clock } from './ports/clock.js';
/** The matcher's point-alarm disc, for the agreement test with the query's crop (test/src/geometry). */
export { PreparedCircle } from './geometry/prepared-circle.js';
/** The arrival predictor as the matcher runs it, for the skill benchmark that judges it (test/src/bench). */
export { EventProjection, HORIZON_MIN, type Eta } from './motion/projection.js';
export { TrackMemory } from './motion/track-memory.js';
export { projectStorm, type StormPosition } from './motion/project-revision.js';
export { ETA_CALIBRATION, type CalibrationPoint } from './motion/eta-calibration.js';
export { PreparedPolygon } from './geometry/prepared-polygon.js';
export { Grid } from './geometry/grid.js';
