import assert from 'node:assert/strict';
import { newClusterId } from './kafka-cluster-id.js';

describe('newClusterId', () => {
  it('is 22 URL-safe base64 characters for 16 bytes', () => {
    assert.match(newClusterId(), /^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });

  it("draws again when the id would start with '-', which the storage tool reads as an option", () => {
    // A first byte of 0xf8 encodes to '-' (index 62 of the URL-safe alphabet); the second draw does not.
    const draws = [Buffer.alloc(16, 0xf8), Buffer.alloc(16, 0x01)];
    let calls = 0;
    const id = newClusterId(() => draws[calls++] as Buffer);
    assert.equal(calls, 2);
    assert.equal(id, Buffer.alloc(16, 0x01).toString('base64url'));
    assert.ok(draws[0]?.toString('base64url').startsWith('-'), 'the first draw is the case under test');
  });
});
