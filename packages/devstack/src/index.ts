export { loadDevstackConfig, type DevstackConfig } from './config.js';
export { ensureInfra, type Infra } from './infra/infra.js';
