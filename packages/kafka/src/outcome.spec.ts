import assert from 'node:assert/strict';
import { backoffDelay, nextStep, outcomeFromError, Outcomes, type RetryPolicy } from './outcome.js';

const policy: RetryPolicy = { maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 250 };

describe('nextStep', () => {
  it('commits ok and dead-letters poison with its reason', () => {
    assert.deepEqual(nextStep(Outcomes.ok(), 1, policy), { kind: 'commit' });
    assert.deepEqual(nextStep(Outcomes.deadLetter('bad geometry'), 1, policy), { kind: 'dead-letter', reason: 'bad geometry' });
  });

  it('retries with backoff until the last attempt, then gives up', () => {
    assert.deepEqual(nextStep(Outcomes.retry('db down'), 1, policy), { kind: 'retry', reason: 'db down', delayMs: 100 });
    assert.deepEqual(nextStep(Outcomes.retry('db down'), 2, policy), { kind: 'retry', reason: 'db down', delayMs: 200 });
    assert.deepEqual(nextStep(Outcomes.retry('db down'), 3, policy), { kind: 'give-up', reason: 'db down', attempts: 3 });
  });

  it('never retries when one attempt is allowed', () => {
    assert.equal(nextStep(Outcomes.retry('x'), 1, { ...policy, maxAttempts: 1 }).kind, 'give-up');
  });
});

describe('backoffDelay', () => {
  it('doubles per attempt and stops at the cap', () => {
    assert.deepEqual(
      [1, 2, 3, 10].map((a) => backoffDelay(a, policy)),
      [100, 200, 250, 250],
    );
  });
});

describe('outcomeFromError', () => {
  it('treats a throwing handler as transient', () => {
    assert.deepEqual(outcomeFromError(new Error('boom')), { kind: 'retry', reason: 'handler threw: boom' });
    assert.deepEqual(outcomeFromError('text'), { kind: 'retry', reason: 'handler threw: text' });
  });
});
