import assert from 'node:assert/strict';
import { emptyStats, healthFigures, HOUR_MS, mergeStats, MINUTE_MS, prune, recordAttempt, WEEK_MS, type RecordedAttempt } from './webhook-stats.js';

const T0 = Date.UTC(2026, 10, 28, 12, 0, 0);
const example = { notificationId: 'ntf_1', attemptNumber: 1, responseStatus: null, error: '' };
const success = (at: number, durationMs = 40, weatherAgeMs = 2_000): RecordedAttempt => ({ at, durationMs, succeeded: true, example, weatherAgeMs });
const failure = (at: number, status: number | null, id = 'ntf_f'): RecordedAttempt => ({
  at,
  durationMs: status === null ? 10_000 : 20,
  succeeded: false,
  failure: status === null ? { failureClass: 'TIMEOUT', status: null } : { failureClass: status >= 500 ? 'HTTP_5XX' : 'HTTP_4XX', status },
  example: { notificationId: id, attemptNumber: 2, responseStatus: status, error: status === null ? 'timed out after 10000 ms' : `HTTP ${status}` },
});

describe('webhook statistics', () => {
  it('counts attempts per window and keeps each window to its own span', () => {
    const stats = emptyStats('acc');
    recordAttempt(stats, success(T0 - 3 * 24 * HOUR_MS)); // last 7 days only
    recordAttempt(stats, success(T0 - 5 * HOUR_MS)); // last 24 hours too
    recordAttempt(stats, failure(T0 - 10 * MINUTE_MS, 503)); // all three
    recordAttempt(stats, success(T0 - MINUTE_MS));
    const figures = healthFigures(stats, T0);
    assert.deepEqual([figures.lastHour.attempts, figures.last24Hours.attempts, figures.last7Days.attempts], [2, 3, 4]);
    assert.equal(figures.lastHour.successRate, 0.5);
    assert.equal(figures.last7Days.succeeded, 3);
    assert.equal(figures.last7Days.failed, 1);
    assert.equal(figures.last7Days.weatherAgeMs.p50, 2_000);
  });

  it('groups failures by class and status with their first and last time and the latest as example', () => {
    const stats = emptyStats('acc');
    recordAttempt(stats, failure(T0 - 50 * MINUTE_MS, 503, 'ntf_a'));
    recordAttempt(stats, failure(T0 - 40 * MINUTE_MS, 503, 'ntf_b'));
    recordAttempt(stats, failure(T0 - 30 * MINUTE_MS, 404, 'ntf_c'));
    recordAttempt(stats, failure(T0 - 2 * HOUR_MS, null, 'ntf_d'));
    const { failures } = healthFigures(stats, T0);
    assert.deepEqual(
      failures.map((g) => [g.failureClass, g.status, g.count, g.firstEpochMs, g.lastEpochMs, g.example.notificationId]),
      [
        ['HTTP_5XX', 503, 2, T0 - 50 * MINUTE_MS, T0 - 40 * MINUTE_MS, 'ntf_b'],
        ['HTTP_4XX', 404, 1, T0 - 30 * MINUTE_MS, T0 - 30 * MINUTE_MS, 'ntf_c'],
        ['TIMEOUT', null, 1, T0 - 2 * HOUR_MS, T0 - 2 * HOUR_MS, 'ntf_d'],
      ],
    );
  });

  it('counts failures in a row from the last success, and a success ends the run', () => {
    const stats = emptyStats('acc');
    recordAttempt(stats, failure(T0 - 5_000, 500));
    recordAttempt(stats, failure(T0 - 4_000, 500));
    assert.equal(healthFigures(stats, T0).failuresInRow, 2);
    recordAttempt(stats, success(T0 - 3_000));
    recordAttempt(stats, failure(T0 - 2_000, 500));
    const figures = healthFigures(stats, T0);
    assert.equal(figures.failuresInRow, 1);
    assert.equal(figures.lastSuccessAt, T0 - 3_000);
  });

  it('drops buckets no window reaches', () => {
    const stats = emptyStats('acc');
    recordAttempt(stats, success(T0 - WEEK_MS - 2 * HOUR_MS));
    recordAttempt(stats, success(T0 - 2 * HOUR_MS));
    assert.equal(prune(stats, T0), true);
    assert.equal(stats.minutes.length, 0, 'minute buckets older than an hour go');
    assert.equal(stats.hours.length, 1, 'hour buckets older than a week go');
    assert.equal(prune(stats, T0), false);
  });

  it('sums what several instances saw: counts, percentiles, waiting deliveries, the earliest future retry', () => {
    const a = emptyStats('acc');
    const b = emptyStats('acc');
    for (let i = 0; i < 9; i++) recordAttempt(a, success(T0 - 10_000 - i, 8));
    recordAttempt(b, success(T0 - 5_000, 2_500));
    recordAttempt(b, failure(T0 - 4_000, 502));
    a.opened = 10;
    a.closed = 9;
    b.opened = 3;
    b.closed = 1;
    a.nextRetryAt = T0 - 1; // already due: no longer the next one
    b.nextRetryAt = T0 + 60_000;
    const figures = healthFigures(mergeStats('acc', [a, b], T0), T0);
    assert.equal(figures.lastHour.attempts, 11);
    assert.equal(figures.lastHour.latencyMs.p50, 10);
    assert.equal(figures.lastHour.latencyMs.p99, 2_500);
    assert.equal(figures.waiting, 3);
    assert.equal(figures.nextRetryAt, T0 + 60_000);
    assert.equal(figures.failuresInRow, 1);
  });

  it('never reports a negative number of waiting deliveries (those opened before counting began)', () => {
    const stats = emptyStats('acc');
    stats.closed = 4;
    assert.equal(healthFigures(stats, T0).waiting, 0);
  });
});
