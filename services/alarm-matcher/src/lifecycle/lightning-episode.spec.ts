import assert from 'node:assert/strict';
import { allClearDueMs, allClearStage, decideStrike } from './lightning-episode.js';

const QUIET = 30 * 60_000;

describe('lightning episodes', () => {
  it('opens an episode at the first strike and extends it while strikes keep coming', () => {
    const first = decideStrike('r', undefined, 1_000, QUIET);
    assert.deepEqual(first, { next: { registrationId: 'r', firstStrikeMs: 1_000, lastStrikeMs: 1_000 } });
    const second = decideStrike('r', first.next, 1_000 + QUIET - 1, QUIET);
    assert.equal(second.endedEpisode, undefined);
    assert.equal(second.next.lastStrikeMs, 1_000 + QUIET - 1);
    assert.equal(allClearDueMs(second.next, QUIET), 1_000 + 2 * QUIET - 1);
  });

  it('ends the episode when a strike comes after the quiet period, and starts the next one', () => {
    const open = { registrationId: 'r', firstStrikeMs: 1_000, lastStrikeMs: 5_000 };
    const decision = decideStrike('r', open, 5_000 + QUIET, QUIET);
    assert.deepEqual(decision.endedEpisode, open);
    assert.deepEqual(decision.next, { registrationId: 'r', firstStrikeMs: 5_000 + QUIET, lastStrikeMs: 5_000 + QUIET });
    assert.equal(allClearStage(open), 'all-clear@1000');
  });

  it('does not move the end of an episode back for a late strike', () => {
    const open = { registrationId: 'r', firstStrikeMs: 1_000, lastStrikeMs: 9_000 };
    assert.equal(decideStrike('r', open, 2_000, QUIET).next.lastStrikeMs, 9_000);
  });
});
