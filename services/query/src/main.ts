import { runMain } from '@stormhook/service-kit';
import { loadConfig } from './config.js';
import { start } from './service.js';

runMain('query', async () => start(loadConfig()));
