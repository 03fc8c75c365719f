import assert from 'node:assert/strict';
import { redactUrl } from './connect.js';
import { databaseName } from './names.js';

describe('databaseName', () => {
  it('prefixes the service, stormhook by default', () => {
    assert.equal(databaseName('identity'), 'stormhook_identity');
    assert.equal(databaseName('alarm-matcher', 'it-lx2k9-0a1b2c3d'), 'it-lx2k9-0a1b2c3d_alarm-matcher');
  });

  it('refuses names the database would refuse', () => {
    assert.throws(() => databaseName('a.b'), /invalid database name "stormhook_a.b"/);
    assert.throws(() => databaseName('x', 'has space'), /invalid database name/);
    assert.throws(() => databaseName('s'.repeat(60)), /1 to 63/);
  });
});

describe('redactUrl', () => {
  it('hides credentials and keeps hosts', () => {
    assert.equal(redactUrl('mongodb://user:pa%40ss@a:27017,b:27017/db'), 'mongodb://***@a:27017,b:27017/db');
    assert.equal(redactUrl('mongodb+srv://u:p@cluster.example.net'), 'mongodb+srv://***@cluster.example.net');
    assert.equal(redactUrl('mongodb://127.0.0.1:27017'), 'mongodb://127.0.0.1:27017');
  });
});
