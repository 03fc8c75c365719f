import assert from 'node:assert/strict';
import { decodeCursor, encodeCursor } from './delivery-cursor.js';

describe('delivery page cursors', () => {
  it('round-trips a position', () => {
    const position = { createdAt: new Date(1_795_788_000_123), id: 'ntf_01JDXK9V4N8C2T6QW3ZB5R7Y1M' };
    assert.deepEqual(decodeCursor(encodeCursor(position)), position);
  });

  it('refuses what this API did not issue', () => {
    for (const cursor of [
      'not base64 !',
      Buffer.from('{"a":1}').toString('base64url'),
      Buffer.from('[1.5,"x"]').toString('base64url'),
      Buffer.from('[-1,"x"]').toString('base64url'),
      Buffer.from('[1,""]').toString('base64url'),
      Buffer.from('[1,"x",3]').toString('base64url'),
      'A'.repeat(401),
    ]) {
      assert.equal(decodeCursor(cursor), undefined, cursor);
    }
  });
});
