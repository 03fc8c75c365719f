import assert from 'node:assert/strict';
import { loadDevstackConfig } from './config.js';

describe('loadDevstackConfig', () => {
  it('allows the local front end and the gateway itself as link origins on a first start', () => {
    assert.deepEqual(loadDevstackConfig({}).linkOrigins, ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://127.0.0.1:8080', 'http://localhost:8080']);
    assert.deepEqual(loadDevstackConfig({ STORMHOOK_GATEWAY_PORT: '18080' }).linkOrigins.slice(2), ['http://127.0.0.1:18080', 'http://localhost:18080']);
  });

  it('takes STORMHOOK_ALLOWED_LINK_ORIGINS instead when it is set', () => {
    assert.deepEqual(loadDevstackConfig({ STORMHOOK_ALLOWED_LINK_ORIGINS: 'https://app.example.com' }).linkOrigins, ['https://app.example.com']);
  });
});
