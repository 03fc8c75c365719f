import assert from 'node:assert/strict';
import { decide, type SeenEntry } from './decide.js';

const stored: SeenEntry = { revision: 2, contentHash: 'a', sourceVersion: 3, sourceUpdatedEpochMs: 0 };

describe('decide (de-duplication and versioning)', () => {
  it('publishes what was never seen as revision 1', () => {
    assert.deepEqual(decide(null, { contentHash: 'a', sourceVersion: 0, sourceUpdatedEpochMs: 0 }), { kind: 'first' });
  });

  it('drops identical content, whatever version it claims', () => {
    assert.deepEqual(decide(stored, { contentHash: 'a', sourceVersion: 3, sourceUpdatedEpochMs: 0 }), { kind: 'duplicate' });
    assert.deepEqual(decide(stored, { contentHash: 'a', sourceVersion: 9, sourceUpdatedEpochMs: 0 }), { kind: 'duplicate' });
  });

  it('supersedes on a higher version or a later update time', () => {
    assert.deepEqual(decide(stored, { contentHash: 'b', sourceVersion: 4, sourceUpdatedEpochMs: 0 }), { kind: 'supersede', revision: 3 });
    assert.deepEqual(decide(stored, { contentHash: 'b', sourceVersion: 3, sourceUpdatedEpochMs: 5 }), { kind: 'supersede', revision: 3 });
  });

  it('drops an older version that arrives late', () => {
    assert.deepEqual(decide(stored, { contentHash: 'b', sourceVersion: 2, sourceUpdatedEpochMs: 99 }), { kind: 'stale' });
  });

  it('calls new content under the same explicit version a conflict', () => {
    const decision = decide(stored, { contentHash: 'b', sourceVersion: 3, sourceUpdatedEpochMs: 0 });
    assert.equal(decision.kind, 'conflict');
  });

  it('lets the last record win when the publisher versions nothing', () => {
    const unversioned = { ...stored, sourceVersion: 0 };
    assert.deepEqual(decide(unversioned, { contentHash: 'b', sourceVersion: 0, sourceUpdatedEpochMs: 0 }), { kind: 'supersede', revision: 3 });
  });
});
