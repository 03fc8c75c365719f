import assert from 'node:assert/strict';
import { contentHash, revisionEventId } from './content-hash.js';

describe('content hash and revision event ids', () => {
  it('hashes equal content equally and different content differently', () => {
    assert.equal(contentHash([{ a: 1, b: [1, 2] }]), contentHash([{ a: 1, b: [1, 2] }]));
    assert.notEqual(contentHash([{ a: 1, b: [1, 2] }]), contentHash([{ a: 1, b: [2, 1] }]));
  });

  it('derives a stable, well-formed Kafka event id per event revision', () => {
    const id = revisionEventId('prc_radar-1', 1);
    assert.match(id, /^evt_[0-9A-HJKMNP-TV-Z]{26}$/);
    assert.equal(revisionEventId('prc_radar-1', 1), id);
    assert.notEqual(revisionEventId('prc_radar-1', 2), id);
    assert.notEqual(revisionEventId('prc_radar-2', 1), id);
  });
});
