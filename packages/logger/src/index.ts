export { createLogger, DEFAULT_REDACT_PATHS, type Logger, type LoggerOptions } from './create-logger.js';
