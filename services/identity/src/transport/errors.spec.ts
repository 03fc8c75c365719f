import assert from 'node:assert/strict';
import { GrpcStatus, httpStatusOfError } from '@stormhook/grpc';
import { expired, forbidden, invalidCredentials, notFound, rateLimited, validation, conflict } from '../errors.js';
import { fail, ok } from '../result.js';
import { toGrpcError, unwrap } from './errors.js';

describe('identity errors on the wire', () => {
  it('maps every kind to a gRPC code and the public HTTP status', () => {
    const cases = [
      [notFound('account'), GrpcStatus.NOT_FOUND, 404],
      [invalidCredentials(), GrpcStatus.UNAUTHENTICATED, 401],
      [conflict('taken'), GrpcStatus.ALREADY_EXISTS, 409],
      [forbidden(), GrpcStatus.PERMISSION_DENIED, 403],
      [validation('pageSize', 'must be an integer from 1 to 100'), GrpcStatus.INVALID_ARGUMENT, 400],
      [rateLimited(12.2), GrpcStatus.RESOURCE_EXHAUSTED, 429],
      [expired('used'), GrpcStatus.FAILED_PRECONDITION, 400],
    ] as const;
    for (const [error, code, http] of cases) {
      const grpc = toGrpcError(error);
      assert.equal(grpc.code, code, error.kind);
      assert.equal(grpc.detail?.httpStatus, http, error.kind);
      assert.equal(httpStatusOfError(grpc), http, error.kind);
      assert.equal(grpc.detail?.message, error.message);
      assert.deepEqual(grpc.detail?.messages, [error.message]);
    }
  });

  it('names the field of a validation error and the wait of a rate limit', () => {
    const v = toGrpcError(validation('pageSize', 'must be an integer from 1 to 100'));
    assert.equal(v.message, 'pageSize: must be an integer from 1 to 100');
    assert.deepEqual(v.detail?.metadata, { field: 'pageSize' });
    assert.equal(v.detail?.reason, 'VALIDATION_FAILED');
    assert.equal(toGrpcError(rateLimited(12.2)).detail?.retryAfterMs, 13_000);
  });

  it('unwraps ok results and throws failed ones', () => {
    assert.equal(unwrap(ok(5)), 5);
    assert.throws(
      () => unwrap(fail(notFound('user'))),
      (e: unknown) => e instanceof Error && e.name === 'GrpcError',
    );
  });
});
