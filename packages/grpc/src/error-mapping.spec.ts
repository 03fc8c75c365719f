import assert from 'node:assert/strict';
import { fail, ok } from '@stormhook/errors';
import { commonV1 } from '@stormhook/proto';
import { errorMapper, grpcFailure } from './error-mapping.js';
import { ERROR_DETAIL_TRAILER, GrpcStatus } from './errors.js';

type ShopError = { kind: 'sold-out'; message: string } | { kind: 'bad-field'; field: string; message: string };

const mapper = errorMapper<ShopError>({
  code: { 'sold-out': GrpcStatus.RESOURCE_EXHAUSTED, 'bad-field': GrpcStatus.INVALID_ARGUMENT },
  httpStatus: { 'sold-out': 429, 'bad-field': 400 },
  reason: (error) => (error.kind === 'sold-out' ? 'SOLD_OUT' : 'VALIDATION_FAILED'),
  retryAfterMs: (error) => (error.kind === 'sold-out' ? 2_000 : undefined),
  metadata: (error): Record<string, string> => (error.kind === 'bad-field' ? { field: error.field } : {}),
});

/** The detail as the client decodes it from the trailer, so the test reads what travels. */
function sentDetail(error: ReturnType<typeof grpcFailure>): commonV1.ErrorDetail {
  const raw = error.toStatus().metadata?.get(ERROR_DETAIL_TRAILER)[0];
  assert.ok(Buffer.isBuffer(raw));
  return commonV1.ErrorDetail.decode(raw);
}

describe('errorMapper', () => {
  it('sends the code of the kind and a detail with reason, message, public status and metadata', () => {
    const error = mapper.toGrpcError({ kind: 'bad-field', field: 'order.count', message: 'order.count must be positive' });
    assert.equal(error.code, GrpcStatus.INVALID_ARGUMENT);
    assert.equal(error.message, 'order.count must be positive');
    const detail = sentDetail(error);
    assert.equal(detail.reason, 'VALIDATION_FAILED');
    assert.equal(detail.message, 'order.count must be positive');
    assert.deepEqual(detail.messages, ['order.count must be positive']);
    assert.equal(detail.httpStatus, 400);
    assert.equal(detail.retryAfterMs, undefined);
    assert.deepEqual(detail.metadata, { field: 'order.count' });
  });

  it('sets retry_after_ms only where the mapping gives one', () => {
    const detail = sentDetail(mapper.toGrpcError({ kind: 'sold-out', message: 'gone' }));
    assert.equal(detail.httpStatus, 429);
    assert.equal(detail.retryAfterMs, 2_000);
    assert.deepEqual(detail.metadata, {});
  });

  it('unwraps a success and throws a failure as its GrpcError', () => {
    assert.equal(mapper.unwrap(ok(3)), 3);
    assert.throws(
      () => mapper.unwrap(fail<ShopError>({ kind: 'sold-out', message: 'gone' })),
      (error: unknown) => error instanceof Error && 'code' in error && error.code === GrpcStatus.RESOURCE_EXHAUSTED,
    );
  });

  it('encodes the same bytes as the detail written out by hand', () => {
    const error = grpcFailure(GrpcStatus.UNAVAILABLE, { reason: 'DB_DOWN', message: 'try again', httpStatus: 503, retryAfterMs: 5_000, cause: new Error('x') });
    const byHand = commonV1.ErrorDetail.create({ reason: 'DB_DOWN', message: 'try again', messages: ['try again'], httpStatus: 503, retryAfterMs: 5_000 });
    assert.deepEqual(error.toStatus().metadata?.get(ERROR_DETAIL_TRAILER)[0], Buffer.from(commonV1.ErrorDetail.encode(byHand)));
    assert.equal((error.cause as Error).message, 'x');
  });
});
