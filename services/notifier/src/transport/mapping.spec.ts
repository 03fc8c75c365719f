import assert from 'node:assert/strict';
import { GrpcStatus } from '@stormhook/grpc';
import type { notificationV1 } from '@stormhook/proto';
import { MongoNetworkError } from 'mongodb';
import { notFound, validation } from '../domain/notifier-error.js';
import { toGrpcError, translateFailure } from './errors.js';
import { configInput, statusFilter } from './mapping.js';

describe('notifier gRPC translation', () => {
  it('keeps absent policy fields absent and explicit zeros as zeros', () => {
    const base = { url: 'https://example.com/h', httpMethod: 'POST', contentType: '', requestHeaders: {} };
    assert.equal(configInput({ ...base }).deliveryPolicy, undefined);
    assert.deepEqual(configInput({ ...base, deliveryPolicy: { maxRetries: 0 } }).deliveryPolicy, { maxRetries: 0 });
    assert.deepEqual(configInput({ ...base, deliveryPolicy: { timeoutMs: 0, maxRetries: 2, retryDelaySeconds: 5 } }).deliveryPolicy, {
      timeoutMs: 0,
      maxRetries: 2,
      retryDelaySeconds: 5,
    });
  });

  it('maps auth type names without their prefix; UNSPECIFIED means not given', () => {
    const auth = (type: notificationV1.WebhookAuthType) =>
      configInput({ url: '', httpMethod: '', contentType: '', requestHeaders: {}, authentication: { type, username: 'u', password: 'p' } }).authentication
        ?.type;
    assert.equal(auth('WEBHOOK_AUTH_TYPE_API_KEY_QUERY'), 'API_KEY_QUERY');
    assert.equal(auth('WEBHOOK_AUTH_TYPE_UNSPECIFIED'), undefined);
    assert.equal(statusFilter('DELIVERY_STATUS_IN_FLIGHT'), 'in-flight');
    assert.equal(statusFilter('DELIVERY_STATUS_UNSPECIFIED'), undefined);
  });

  it('turns use-case failures into statuses whose detail carries the HTTP status and the field', () => {
    const invalid = toGrpcError(validation('webhook.deliveryPolicy.retryDelay', 'must be an integer between 1 and 3600 seconds'));
    assert.equal(invalid.code, GrpcStatus.INVALID_ARGUMENT);
    assert.equal(invalid.detail?.httpStatus, 400);
    assert.equal(invalid.detail?.metadata['field'], 'webhook.deliveryPolicy.retryDelay');
    assert.equal(invalid.message, 'webhook.deliveryPolicy.retryDelay must be an integer between 1 and 3600 seconds');
    assert.equal(toGrpcError(notFound('Delivery not found')).detail?.httpStatus, 404);
  });

  it('answers 503 when the database is unreachable, and leaves other errors alone', () => {
    const down = translateFailure(new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017'));
    assert.equal((down as { code: number }).code, GrpcStatus.UNAVAILABLE);
    assert.equal((down as { detail?: { httpStatus?: number } }).detail?.httpStatus, 503);
    const bug = new TypeError('x is undefined');
    assert.equal(translateFailure(bug), bug);
  });
});
