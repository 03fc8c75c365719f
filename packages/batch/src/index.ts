export { MicroBatcher, type MicroBatcherOptions } from './micro-batcher.js';
