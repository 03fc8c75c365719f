import assert from 'node:assert/strict';
import { formatApiKey, maskApiKey, parseApiKey } from './api-key-format.js';
import { randomId, randomToken } from './secrets.js';

describe('API key format', () => {
  it('round-trips shk_<id>_<secret>, even when the secret contains underscores', () => {
    const id = randomId(8);
    const secret = `${randomToken(32).slice(0, 40)}_a_`;
    assert.deepEqual(parseApiKey(formatApiKey(id, secret)), { id, secret });
  });

  it('refuses other shapes', () => {
    for (const bad of ['', 'shk__x', `shk_${'g'.repeat(16)}_${'a'.repeat(43)}`, `sk_${'a'.repeat(16)}_${'a'.repeat(43)}`, `shk_${'a'.repeat(16)}_short`]) {
      assert.equal(parseApiKey(bad), undefined, bad);
    }
  });

  it('masks all but the last four characters', () => {
    assert.equal(maskApiKey('0123456789abcdef', 'wxyz'), 'shk_0123456789abcdef_****wxyz');
  });
});
