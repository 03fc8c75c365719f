export { runSimulator, resolveSimOptions, type RunSimulatorOptions, type SimSummary, type FeedSink } from './run.js';
export { WeatherSimulator, type SimRecord, type SimTick } from './simulate.js';
export { DEFAULT_SIM_OPTIONS, TURKEY, parseDuration, type SimOptions, type ForecastOptions } from './options.js';
export { forecastRun, gridPoints } from './forecast-gen.js';
// The truth behind the feed, for benchmarks that score what a predictor made of it.
export { stateAt, StormCatalogue, MAX_LIFE_MS, type StormSystem, type StormState, type StormKind } from './storms.js';
export { cellPolygonAt, cellRecord, cellWindow } from './convection.js';
export { centerAt, observedMotion, velocityAt, MOTION_NOISE, OBSERVED_OVER_MS, type Motion, type MotionTrack } from './motion.js';
