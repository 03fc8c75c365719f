export { loadDevstackConfig, type DevstackConfig } from './config.js';
export { ensureInfra, type Infra, type InfraOptions } from './infra/infra.js';
export { startPrivateInfra, type InfraControl, type PrivateInfra } from './infra/private-infra.js';
