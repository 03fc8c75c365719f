export { runSimulator, resolveSimOptions, type RunSimulatorOptions, type SimSummary, type FeedSink } from './run.js';
export { WeatherSimulator, type SimRecord, type SimTick } from './simulate.js';
export { DEFAULT_SIM_OPTIONS, TURKEY, parseDuration, type SimOptions, type ForecastOptions } from './options.js';
export { forecastRun, gridPoints } from './forecast-gen.js';
