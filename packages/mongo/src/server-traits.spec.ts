import assert from 'node:assert/strict';
import { traitsOf } from './server-traits.js';

describe('traitsOf (buildInfo)', () => {
  it('takes MongoDB to plan with secondary indexes', () => {
    assert.deepEqual(traitsOf({ version: '7.0.14', ok: 1 }), { name: 'mongodb 7.0.14', queriesUseSecondaryIndexes: true });
  });

  it('takes FerretDB 1.x to scan for anything but _id, and FerretDB 2 to plan with indexes', () => {
    assert.deepEqual(traitsOf({ version: '7.0.42', ferretdbVersion: 'v1.24.2' }), { name: 'ferretdb v1.24.2', queriesUseSecondaryIndexes: false });
    assert.equal(traitsOf({ version: '7.0.77', ferretdbVersion: 'v2.1.0' }).queriesUseSecondaryIndexes, true);
    assert.equal(traitsOf({ ferretdbVersion: 'unknown' }).queriesUseSecondaryIndexes, true, 'an unreadable version keeps every index');
  });
});
