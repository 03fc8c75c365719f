import assert from 'node:assert/strict';
import { DATABASE_USERS, mongoUsers, mongoUserText, serviceDatabase } from './database-access.js';

describe('the database access table', () => {
  it('gives every service a user in its own database with readWrite there and nowhere else', () => {
    assert.deepEqual(mongoUsers().map(mongoUserText), [
      'gateway@stormhook_gateway readWrite@stormhook_gateway',
      'identity@stormhook_identity readWrite@stormhook_identity',
      'geo@stormhook_geo readWrite@stormhook_geo',
      'ingest@stormhook_ingest readWrite@stormhook_ingest',
      'query@stormhook_query readWrite@stormhook_query',
      'alarm-matcher@stormhook_alarm_matcher readWrite@stormhook_alarm_matcher',
      'notifier@stormhook_notifier readWrite@stormhook_notifier',
    ]);
    for (const spec of mongoUsers()) {
      const writable = spec.roles.filter((r) => r.role === 'readWrite').map((r) => r.db);
      assert.deepEqual(writable, [spec.db], `${spec.user} may write ${writable.join(', ')}`);
    }
  });

  it('names the databases as the services open them, under a second stack prefix too', () => {
    assert.equal(serviceDatabase('alarm-matcher'), 'stormhook_alarm_matcher');
    assert.deepEqual(
      mongoUsers('staging').map((u) => u.db),
      DATABASE_USERS.map((s) => `staging_${s.replace(/-/g, '_')}`),
    );
  });
});
