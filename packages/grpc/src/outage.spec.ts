import assert from 'node:assert/strict';
import { isDependencyOutage } from './outage.js';

class MongoServerSelectionError extends Error {
  override name = 'MongoServerSelectionError';
}

describe('isDependencyOutage', () => {
  it('recognises driver connectivity errors, also as the cause of another error', () => {
    assert.equal(isDependencyOutage(new MongoServerSelectionError('no server')), true);
    assert.equal(isDependencyOutage(new Error('wrapped', { cause: new MongoServerSelectionError('no server') })), true);
  });

  it('leaves bugs and expected failures alone', () => {
    assert.equal(isDependencyOutage(new TypeError('x is undefined')), false);
    assert.equal(isDependencyOutage('a string'), false);
  });
});
