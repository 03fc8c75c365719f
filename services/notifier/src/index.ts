export { start, consumerGroups, type NotifierStartOptions } from './service.js';
export { loadConfig, type Config } from './config.js';
