import assert from 'node:assert/strict';
import { decideRingStrike, type RingTrail } from './lightning-approach.js';

describe('lightning approach episodes', () => {
  it('says nothing on the first ring strike, announces on the second with the trend, and never again in the episode', () => {
    const first = decideRingStrike(undefined, 1_000, 8_000);
    assert.equal(first.notice, undefined);
    const second = decideRingStrike(first.next, 1_000, 6_000);
    assert.deepEqual(second.notice, { episodeFirstMs: 1_000, nearestM: 6_000, distanceM: 6_000, closing: true, strikes: 2 });
    const third = decideRingStrike(second.next, 1_000, 2_000);
    assert.equal(third.notice, undefined);
    assert.equal(third.next.nearestM, 2_000);
  });

  it('reports a strike farther than the one before as not closing, with the nearest of the episode', () => {
    const first = decideRingStrike(undefined, 5, 3_000);
    const { notice } = decideRingStrike(first.next, 5, 4_500);
    assert.equal(notice?.closing, false);
    assert.equal(notice?.nearestM, 3_000);
  });

  it('starts over when the episode changed (a quiet period passed)', () => {
    const announced: RingTrail = { episodeFirstMs: 1, lastDistanceM: 1_000, nearestM: 1_000, strikes: 5, notified: true };
    const opened = decideRingStrike(announced, 2_000_000, 9_000);
    assert.equal(opened.notice, undefined);
    assert.equal(opened.next.strikes, 1);
    assert.equal(decideRingStrike(opened.next, 2_000_000, 9_500).notice?.episodeFirstMs, 2_000_000);
  });
});
