import assert from 'node:assert/strict';
import { decideExpiry, decideRevision, type TrackedState, type Transition } from './tracked-event.js';
import { notificationId } from './notification-id.js';

const A = 'reg-a';
const B = 'reg-b';
const rev = (revision: number, rank = 2, rankName = 'MEDIUM') => ({ eventId: 'tst_1', revision, rank, rankName, expiresAtMs: 1_000 + revision });
const never = () => false;

/** Applies transitions to a state map, as the use case does after dispatching. */
function apply(states: Map<string, TrackedState>, transitions: Transition[]): string[] {
  for (const t of transitions) states.set(t.state.registrationId, t.state);
  return transitions.flatMap((t) => (t.kind === 'keep' ? [] : [`${t.state.registrationId}:${t.stage}`]));
}

describe('tracked event lifecycle', () => {
  it('notifies new, then only worse, then the end when it leaves', () => {
    const states = new Map<string, TrackedState>();
    assert.deepEqual(apply(states, decideRevision(rev(1), states, new Set([A]), never)), ['reg-a:start']);
    assert.deepEqual(apply(states, decideRevision(rev(2), states, new Set([A]), never)), [], 'same severity: nothing');
    assert.deepEqual(apply(states, decideRevision(rev(3, 3, 'HIGH'), states, new Set([A]), never)), ['reg-a:worse-HIGH']);
    assert.deepEqual(apply(states, decideRevision(rev(4, 2), states, new Set([A]), never)), [], 'improving: nothing');
    assert.deepEqual(apply(states, decideRevision(rev(5, 3, 'HIGH'), states, new Set([A]), never)), [], 'back to HIGH: already told');
    const ended = decideRevision(rev(6), states, new Set(), never);
    assert.equal(ended[0]?.kind, 'end');
    assert.equal(ended[0]?.kind === 'end' && ended[0].reason, 'LEFT_AREA');
    assert.deepEqual(apply(states, ended), ['reg-a:end']);
  });

  it('tells leaving the area from no longer passing the filter', () => {
    const states = new Map<string, TrackedState>();
    apply(states, decideRevision(rev(1), states, new Set([A, B]), never));
    const ends = decideRevision(rev(2), states, new Set(), (id) => id === B);
    assert.deepEqual(
      ends.map((t) => (t.kind === 'end' ? `${t.state.registrationId}:${t.reason}` : t.kind)),
      ['reg-a:LEFT_AREA', 'reg-b:FILTER_NOT_MET'],
    );
  });

  it('opens a second episode when the event comes back after an END', () => {
    const states = new Map<string, TrackedState>();
    apply(states, decideRevision(rev(1), states, new Set([A]), never));
    apply(states, decideRevision(rev(2), states, new Set(), never));
    assert.deepEqual(apply(states, decideRevision(rev(3), states, new Set(), never)), [], 'still gone: no second END');
    assert.deepEqual(apply(states, decideRevision(rev(4), states, new Set([A]), never)), ['reg-a:start~2']);
    assert.deepEqual(apply(states, decideRevision(rev(5), states, new Set(), never)), ['reg-a:end~2']);
  });

  it('ignores a replayed or out-of-order revision', () => {
    const states = new Map<string, TrackedState>();
    apply(states, decideRevision(rev(1), states, new Set([A]), never));
    apply(states, decideRevision(rev(3, 3, 'HIGH'), states, new Set([A]), never));
    assert.deepEqual(decideRevision(rev(2), states, new Set(), never), [], 'older revision: no END');
    assert.deepEqual(decideRevision(rev(3, 3, 'HIGH'), states, new Set([A]), never), [], 'same revision again');
  });

  it('expires an active state after its expiry time only', () => {
    const state: TrackedState = { eventId: 'tst_1', registrationId: A, episode: 2, active: true, rank: 2, lastRevision: 4, expiresAtMs: 5_000 };
    assert.equal(decideExpiry(state, 4_999), undefined);
    const expired = decideExpiry(state, 5_000);
    assert.equal(expired?.stage, 'end~2');
    assert.equal(expired?.reason, 'EXPIRED');
    assert.equal(expired?.state.active, false);
    assert.equal(decideExpiry({ ...state, active: false }, 9_999), undefined);
  });

  it('gives a stable notification id per event, registration and stage', () => {
    assert.equal(notificationId('tst_1', A, 'start'), notificationId('tst_1', A, 'start'));
    assert.notEqual(notificationId('tst_1', A, 'start'), notificationId('tst_1', A, 'end'));
    assert.notEqual(notificationId('tst_1', A, 'start'), notificationId('tst_1', B, 'start'));
    assert.match(notificationId('tst_1', A, 'start'), /^ntf_[0-9a-f]{32}$/);
  });
});

describe('tracked event lifecycle: the warning stage before arrival', () => {
  const approach = (within: string[], predicted: string[] = within) => ({
    within: new Set(within),
    stillPredicted: (id: string) => predicted.includes(id),
  });

  it('warns once while the event approaches, then starts on arrival and ends on leaving', () => {
    const states = new Map<string, TrackedState>();
    assert.deepEqual(apply(states, decideRevision(rev(1), states, new Set(), never, approach([A]))), ['reg-a:approach']);
    assert.deepEqual(apply(states, decideRevision(rev(2), states, new Set(), never, approach([A]))), [], 'still approaching: told already');
    assert.deepEqual(apply(states, decideRevision(rev(3), states, new Set([A]), never, approach([]))), ['reg-a:start']);
    assert.equal(states.get(A)?.approaching, false);
    assert.deepEqual(apply(states, decideRevision(rev(4), states, new Set(), never, approach([]))), ['reg-a:end']);
  });

  it('keeps a warning while an entry is still predicted later, and cancels it once none is', () => {
    const states = new Map<string, TrackedState>();
    apply(states, decideRevision(rev(1), states, new Set(), never, approach([A])));
    assert.deepEqual(apply(states, decideRevision(rev(2), states, new Set(), never, approach([], [A]))), [], 'slower, still coming: no cancellation');
    const cancelled = decideRevision(rev(3), states, new Set(), never, approach([]));
    assert.equal(cancelled[0]?.kind === 'cancel' && cancelled[0].reason, 'NO_LONGER_PREDICTED');
    assert.deepEqual(apply(states, cancelled), ['reg-a:approach-cancelled']);
    // It turns back: a second warning with its own id, then its cancellation by expiry.
    assert.deepEqual(apply(states, decideRevision(rev(4), states, new Set(), never, approach([A]))), ['reg-a:approach~2']);
    const expired = decideExpiry(states.get(A)!, 10_000);
    assert.equal(expired?.kind, 'cancel');
    assert.equal(expired?.stage, 'approach-cancelled~2');
    assert.equal(expired?.kind === 'cancel' && expired.reason, 'EXPIRED');
  });

  it('starts without a warning for registrations that did not ask for one, and numbers the episodes after a warning', () => {
    const states = new Map<string, TrackedState>();
    assert.deepEqual(apply(states, decideRevision(rev(1), states, new Set([B]), never, approach([A]))), ['reg-b:start', 'reg-a:approach']);
    assert.deepEqual(apply(states, decideRevision(rev(2), states, new Set([A, B]), never, approach([]))), ['reg-a:start']);
    assert.equal(states.get(A)?.episode, 1);
  });
});
