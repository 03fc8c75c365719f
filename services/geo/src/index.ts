export { start } from './service.js';
export { loadConfig, type Config } from './config.js';
