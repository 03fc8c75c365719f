// The contract's limits and the covered area, in one home: the gateway publishes them, the services
// check them, ingest and the alarm-matcher bound the world with them.
export { API_LIMITS } from './api-limits.js';
export { COVERED_AREA, FEED_AREA, TURKEY_EXTENT, areaText, inArea, type AreaBox } from './covered-area.js';
