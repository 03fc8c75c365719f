export * from './event-types.js';
export * from './payload-schemas.js';
export * from './validate-payload.js';
export * from './forecast-thresholds.js';
