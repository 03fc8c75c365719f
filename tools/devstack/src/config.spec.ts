import assert from 'node:assert/strict';
import { FEED_SIM_DEFAULT_ARGS, LOCAL_SSRF_ALLOW_CIDRS, loadDevstackConfig } from './config.js';

describe('loadDevstackConfig', () => {
  it('allows the local front end and the gateway itself as link origins on a first start', () => {
    assert.deepEqual(loadDevstackConfig({}).linkOrigins, ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://127.0.0.1:8080', 'http://localhost:8080']);
    assert.deepEqual(loadDevstackConfig({ STORMHOOK_GATEWAY_PORT: '18080' }).linkOrigins.slice(2), ['http://127.0.0.1:18080', 'http://localhost:18080']);
  });

  it('runs the feed simulator with a demo storm unless STORMHOOK_FEED_SIM=0; extra arguments come last, so they win', () => {
    assert.deepEqual(loadDevstackConfig({}).feedSimulator, { args: FEED_SIM_DEFAULT_ARGS });
    assert.equal(loadDevstackConfig({ STORMHOOK_FEED_SIM: '0' }).feedSimulator, undefined);
    assert.equal(loadDevstackConfig({}).openMeteo, false, 'Open-Meteo only when asked for');
    assert.equal(loadDevstackConfig({ STORMHOOK_OPEN_METEO: '1' }).openMeteo, true);
    assert.deepEqual(loadDevstackConfig({ STORMHOOK_FEED_SIM_ARGS: '--seed 7  --demo-storm 29,41' }).feedSimulator?.args, [
      ...FEED_SIM_DEFAULT_ARGS,
      '--seed',
      '7',
      '--demo-storm',
      '29,41',
    ]);
  });

  it('takes STORMHOOK_ALLOWED_LINK_ORIGINS instead when it is set', () => {
    assert.deepEqual(loadDevstackConfig({ STORMHOOK_ALLOWED_LINK_ORIGINS: 'https://app.example.com' }).linkOrigins, ['https://app.example.com']);
  });

  it("lets the local notifier call a receiver on this machine's loopback unless NOTIFIER_SSRF_ALLOW_CIDRS says otherwise", () => {
    assert.deepEqual(LOCAL_SSRF_ALLOW_CIDRS, ['127.0.0.1/32', '::1/128']);
    assert.deepEqual(loadDevstackConfig({}).ssrfAllowCidrs, LOCAL_SSRF_ALLOW_CIDRS);
    assert.deepEqual(loadDevstackConfig({ NOTIFIER_SSRF_ALLOW_CIDRS: '' }).ssrfAllowCidrs, LOCAL_SSRF_ALLOW_CIDRS, 'empty is unset');
    assert.deepEqual(loadDevstackConfig({ NOTIFIER_SSRF_ALLOW_CIDRS: '10.1.0.0/16, 127.0.0.1' }).ssrfAllowCidrs, ['10.1.0.0/16', '127.0.0.1']);
    assert.deepEqual(loadDevstackConfig({ NOTIFIER_SSRF_ALLOW_CIDRS: 'none' }).ssrfAllowCidrs, []);
    assert.deepEqual(loadDevstackConfig({ NOTIFIER_SSRF_ALLOW_CIDRS: 'None' }).ssrfAllowCidrs, []);
  });
});
