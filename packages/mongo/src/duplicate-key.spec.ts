import assert from 'node:assert/strict';
import { MongoServerError } from 'mongodb';
import { isDuplicateKeyError } from './duplicate-key.js';

describe('isDuplicateKeyError', () => {
  it('recognises code 11000 and the legacy codes', () => {
    assert.equal(isDuplicateKeyError(new MongoServerError({ code: 11000, errmsg: 'E11000 duplicate key error' })), true);
    assert.equal(isDuplicateKeyError({ code: 11001 }), true);
    assert.equal(isDuplicateKeyError({ code: 12582 }), true);
  });

  it('looks inside bulk write errors', () => {
    assert.equal(isDuplicateKeyError({ code: undefined, writeErrors: [{ code: 121 }, { code: 11000 }] }), true);
    assert.equal(isDuplicateKeyError({ writeErrors: { code: 11000 } }), true);
    assert.equal(isDuplicateKeyError({ writeErrors: [{ code: 121 }] }), false);
  });

  it("recognises FerretDB's SQLite unique violation on updates", () => {
    const ferret = new MongoServerError({ code: 1, errmsg: '[msg_update.go:133] constraint failed: UNIQUE constraint failed: index (2067)' });
    assert.equal(isDuplicateKeyError(ferret), true);
    assert.equal(isDuplicateKeyError(new MongoServerError({ code: 1, errmsg: 'some other internal error' })), false);
  });

  it('is false for anything else', () => {
    for (const other of [new Error('E11000 in text only'), { code: 2 }, { code: '11000' }, null, undefined, 'E11000', 11000]) {
      assert.equal(isDuplicateKeyError(other), false, String(other));
    }
  });
});
