import assert from 'node:assert/strict';
import { FEED_SIM_NOTICE, loadDevstackConfig } from '../config.js';
import { localSettings } from './local-settings.js';

const admin = { email: 'admin@stormhook.test', password: 'pw-local', fromEnvironment: false };

describe('localSettings: what npm start tells each service', () => {
  it('lets only the notifier call loopback receivers by default, as one comma list', () => {
    const config = loadDevstackConfig({});
    assert.deepEqual(localSettings('notifier', config, admin), { STORMHOOK_DEV_FALLBACKS: '1', NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/32,::1/128' });
    for (const other of ['gateway', 'identity', 'geo', 'ingest', 'query', 'alarm-matcher'] as const) {
      assert.equal(localSettings(other, config, admin)['NOTIFIER_SSRF_ALLOW_CIDRS'], undefined, other);
    }
  });

  it('passes the operator ranges on, and an empty value (the full filter) for `none`', () => {
    assert.deepEqual(localSettings('notifier', loadDevstackConfig({ NOTIFIER_SSRF_ALLOW_CIDRS: '10.1.0.0/16' }), admin), {
      STORMHOOK_DEV_FALLBACKS: '1',
      NOTIFIER_SSRF_ALLOW_CIDRS: '10.1.0.0/16',
    });
    // Present and empty, so it replaces the `none` the notifier would otherwise inherit and refuse.
    assert.deepEqual(localSettings('notifier', loadDevstackConfig({ NOTIFIER_SSRF_ALLOW_CIDRS: 'none' }), admin), {
      STORMHOOK_DEV_FALLBACKS: '1',
      NOTIFIER_SSRF_ALLOW_CIDRS: '',
    });
  });

  it('gives identity the administrator and the link origins, and the gateway the synthetic-data notice while the simulator runs', () => {
    const config = loadDevstackConfig({});
    assert.deepEqual(localSettings('identity', config, admin), {
      STORMHOOK_DEV_FALLBACKS: '1',
      STORMHOOK_ADMIN_EMAIL: admin.email,
      STORMHOOK_ADMIN_PASSWORD: admin.password,
      STORMHOOK_ALLOWED_LINK_ORIGINS: config.linkOrigins.join(','),
    });
    assert.deepEqual(localSettings('gateway', config, admin), { STORMHOOK_DEV_FALLBACKS: '1', STORMHOOK_DATA_SOURCE_NOTICE: FEED_SIM_NOTICE });
    assert.deepEqual(localSettings('gateway', loadDevstackConfig({ STORMHOOK_FEED_SIM: '0' }), admin), { STORMHOOK_DEV_FALLBACKS: '1' });
  });

  it('lets every service of npm start make up the keys production must supply', () => {
    for (const name of ['gateway', 'identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier'] as const) {
      assert.equal(localSettings(name, loadDevstackConfig({}), admin)['STORMHOOK_DEV_FALLBACKS'], '1', name);
    }
  });
});
