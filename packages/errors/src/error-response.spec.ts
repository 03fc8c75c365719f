import assert from 'node:assert/strict';
import { errorResponse } from './error-response.js';
import { ApiError } from './api-error.js';
import { reasonPhrase } from './reason-phrase.js';
import { ErrorMessages, notAvailableYet, outsideGeographicBoundaries } from './messages.js';

describe('errorResponse', () => {
  it('has the ErrorResponse fields with the reason phrase as error', () => {
    const body = errorResponse(402, ErrorMessages.subscriptionRequired, '/v1/precipitations/geometry');
    assert.deepEqual(Object.keys(body), ['timestamp', 'status', 'error', 'message', 'path']);
    assert.equal(body.status, 402);
    assert.equal(body.error, 'Payment Required');
    assert.equal(body.message, 'You Need To Renew Your Subscription or Purchase New One');
    assert.equal(body.path, '/v1/precipitations/geometry');
    assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/);
  });

  it('adds messages only when there are some', () => {
    assert.deepEqual(errorResponse(400, 'a', '/p', ['a', 'b']).messages, ['a', 'b']);
    assert.equal('messages' in errorResponse(400, 'a', '/p', []), false);
  });

  it('never leaves message or path empty', () => {
    const body = errorResponse(404, '', '');
    assert.equal(body.message, 'Not Found');
    assert.equal(body.path, '/');
  });
});

describe('reasonPhrase', () => {
  it('spells the statuses of the contract', () => {
    assert.equal(reasonPhrase(400), 'Bad Request');
    assert.equal(reasonPhrase(401), 'Unauthorized');
    assert.equal(reasonPhrase(402), 'Payment Required');
    assert.equal(reasonPhrase(403), 'Forbidden');
    assert.equal(reasonPhrase(413), 'Payload Too Large');
    assert.equal(reasonPhrase(415), 'Unsupported Media Type');
    assert.equal(reasonPhrase(429), 'Too Many Requests');
    assert.equal(reasonPhrase(500), 'Internal Server Error');
    assert.equal(reasonPhrase(501), 'Not Implemented');
  });

  it('falls back to a non-empty phrase for unknown codes', () => {
    assert.equal(reasonPhrase(418), "I'm a Teapot");
    assert.equal(reasonPhrase(599), 'HTTP 599');
  });
});

describe('message catalogue', () => {
  it('formats the geographic-boundary message as the contract shows it', () => {
    assert.equal(
      outsideGeographicBoundaries(41.0151, 28.9795, 'TUR', 'Ankara'),
      'The Location You Are Querying [41.0151, 28.9795] Is Not Within The Geographic Boundaries Allowed In Your Subscription [TUR, Ankara]',
    );
  });

  it('keeps the contract texts verbatim', () => {
    assert.equal(ErrorMessages.noSubscriptionForEndpoint, 'No Subscription Found For This Service Endpoint');
    assert.equal(ErrorMessages.subscriptionLimitExceeded, 'Your Subscription Limits For This Service is Exceeded');
    assert.equal(ErrorMessages.invocationFailed, 'An Error Occurred During Invocation');
    assert.equal(notAvailableYet('getUser'), 'getUser is not available yet');
  });
});

describe('ApiError', () => {
  it('carries status, message and messages', () => {
    const error = ApiError.badRequest('pageSize must be <= 100', ['pageSize must be <= 100']);
    assert.ok(error instanceof Error);
    assert.equal(error.status, 400);
    assert.equal(error.message, 'pageSize must be <= 100');
    assert.deepEqual(error.messages, ['pageSize must be <= 100']);
  });

  it('has factories for the contract errors', () => {
    assert.equal(ApiError.paymentRequired().status, 402);
    assert.equal(ApiError.limitExceeded().message, ErrorMessages.subscriptionLimitExceeded);
    const outside = ApiError.outsideGeographicBoundaries(1, 2, 'TUR', 'Istanbul');
    assert.equal(outside.status, 403);
    assert.match(outside.message, /\[1, 2\].*\[TUR, Istanbul\]$/);
  });

  it('refuses non-error statuses', () => {
    assert.throws(() => new ApiError(200, 'ok'), RangeError);
  });
});
