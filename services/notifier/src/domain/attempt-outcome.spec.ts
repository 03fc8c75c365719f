import assert from 'node:assert/strict';
import { classifyAttempt, nextRetryDelayMs, parseRetryAfter } from './attempt-outcome.js';

const response = (statusCode: number, body = '', headers: Record<string, string> = {}) => ({ kind: 'response' as const, statusCode, headers, body });

describe('attempt classification', () => {
  it('counts a 2xx as success, with or without a body', () => {
    assert.equal(classifyAttempt(response(200), 'a').succeeded, true);
    assert.equal(classifyAttempt(response(204), 'a').succeeded, true);
    assert.equal(classifyAttempt(response(200, 'ok, thanks'), 'a').succeeded, true);
  });

  it('checks the acknowledgement body: id and SUCCESS status', () => {
    assert.equal(classifyAttempt(response(200, '{"id":"a","status":"SUCCESS","timeEpochMillis":1}'), 'a').succeeded, true);
    assert.match(classifyAttempt(response(200, '{"id":"b","status":"SUCCESS"}'), 'a').error ?? '', /does not match/);
    assert.match(classifyAttempt(response(200, '{"id":"a","status":"FAILED"}'), 'a').error ?? '', /not SUCCESS/);
  });

  it('fails 3xx (never followed), 4xx and 5xx; 410 means gone', () => {
    assert.match(classifyAttempt(response(301), 'a').error ?? '', /redirects are not followed/);
    assert.equal(classifyAttempt(response(500), 'a').succeeded, false);
    assert.equal(classifyAttempt(response(410), 'a').gone, true);
    assert.equal(classifyAttempt({ kind: 'error', message: 'ECONNREFUSED' }, 'a').error, 'ECONNREFUSED');
  });

  it('reads Retry-After on 429 and 503 only, as seconds or a date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(classifyAttempt(response(429, '', { 'retry-after': '30' }), 'a', now).retryAfterMs, 30_000);
    assert.equal(classifyAttempt(response(500, '', { 'retry-after': '30' }), 'a', now).retryAfterMs, null);
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:01:00 GMT', now), 60_000);
    assert.equal(parseRetryAfter('soon', now), null);
  });

  it('clamps Retry-After to twice the scheduled delay and never goes below it', () => {
    assert.equal(nextRetryDelayMs(10, null), 10_000);
    assert.equal(nextRetryDelayMs(10, 15_000), 15_000);
    assert.equal(nextRetryDelayMs(10, 3_600_000), 20_000);
    assert.equal(nextRetryDelayMs(10, 1_000), 10_000);
  });
});
