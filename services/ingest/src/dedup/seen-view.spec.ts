import assert from 'node:assert/strict';
import type { SeenRecord } from './seen-store.js';
import { SeenView } from './seen-view.js';

const at = (eventTimeEpochMs: number, revision = 1): SeenRecord => ({
  revision,
  contentHash: `h${revision}`,
  sourceVersion: 0,
  sourceUpdatedEpochMs: 0,
  eventTimeEpochMs,
});

describe('SeenView', () => {
  it('trusts absence only once loaded, and only above its horizon', () => {
    const view = new SeenView(10, 0);
    assert.equal(view.wantsLoad, true);
    assert.equal(view.lookup('a', 5_000).kind, 'ask-database', 'not loaded: the database answers');
    view.load(1_000, [{ id: 'old', record: at(1_500) }]);
    assert.equal(view.wantsLoad, false);
    assert.deepEqual(view.lookup('old', 1_500), { kind: 'known', record: at(1_500) });
    assert.equal(view.lookup('new', 2_000).kind, 'absent');
    assert.equal(view.lookup('older', 999).kind, 'ask-database', 'below the horizon the view may miss entries');
  });

  it('never trusts absence for a feed without an absence span', () => {
    const view = new SeenView(10, undefined);
    assert.equal(view.wantsLoad, false);
    view.set('a', at(5_000));
    assert.equal(view.lookup('a', 5_000).kind, 'known');
    assert.equal(view.lookup('b', 5_000).kind, 'ask-database');
  });

  it('raises the horizon past what it evicts, so it stays complete above it', () => {
    const view = new SeenView(2, 0);
    view.load(0, []);
    view.set('a', at(100));
    view.set('b', at(300));
    view.set('c', at(200)); // evicts a (least recently used)
    assert.equal(view.size, 2);
    assert.equal(view.lookup('a', 100).kind, 'ask-database', 'a was evicted: the horizon moved past it');
    assert.equal(view.lookup('x', 101).kind, 'absent');
    view.set('d', at(400)); // evicts b (300): horizon 301
    assert.equal(view.lookup('y', 250).kind, 'ask-database');
    assert.equal(view.lookup('z', 301).kind, 'absent');
  });

  it('keeps the most recent entries when the load exceeds its capacity, and entries written meanwhile win', () => {
    const view = new SeenView(2, 0);
    view.set('mine', at(50, 2));
    view.load(0, [
      { id: 'mine', record: at(50, 1) },
      { id: 'p', record: at(10) },
      { id: 'q', record: at(20) },
    ]);
    assert.deepEqual(view.lookup('mine', 50), { kind: 'known', record: at(50, 2) });
    assert.equal(view.lookup('q', 20).kind, 'known');
    assert.equal(view.lookup('p', 10).kind, 'ask-database', 'p did not fit: the horizon is above it');
    assert.equal(view.lookup('r', 11).kind, 'absent');
  });

  it('asks the database for a key written behind its back until it learns the entry', () => {
    const view = new SeenView(10, 0);
    view.load(0, []);
    assert.equal(view.lookup('k', 100).kind, 'absent');
    view.distrust('k');
    assert.equal(view.lookup('k', 100).kind, 'ask-database');
    view.set('k', at(100, 3));
    assert.deepEqual(view.lookup('k', 100), { kind: 'known', record: at(100, 3) });
  });

  it('forgets everything on clear, the horizon included', () => {
    const view = new SeenView(10, 0);
    view.load(0, [{ id: 'a', record: at(5) }]);
    view.clear();
    assert.equal(view.size, 0);
    assert.equal(view.wantsLoad, true);
    assert.equal(view.lookup('a', 5).kind, 'ask-database');
  });

  it('drops what the database purge deletes', () => {
    const view = new SeenView(10, 0);
    view.load(0, [
      { id: 'a', record: at(5) },
      { id: 'b', record: at(50) },
    ]);
    view.deleteBefore(10);
    assert.equal(view.size, 1);
    assert.equal(view.lookup('b', 50).kind, 'known');
  });
});
