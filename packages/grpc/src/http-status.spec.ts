import assert from 'node:assert/strict';
import { GrpcError, GrpcStatus } from './errors.js';
import { httpStatusOf, httpStatusOfError } from './http-status.js';

describe('httpStatusOf', () => {
  it('maps every gRPC status code', () => {
    const expected: Array<[GrpcStatus, number]> = [
      [GrpcStatus.OK, 200],
      [GrpcStatus.CANCELLED, 499],
      [GrpcStatus.UNKNOWN, 500],
      [GrpcStatus.INVALID_ARGUMENT, 400],
      [GrpcStatus.DEADLINE_EXCEEDED, 504],
      [GrpcStatus.NOT_FOUND, 404],
      [GrpcStatus.ALREADY_EXISTS, 409],
      [GrpcStatus.PERMISSION_DENIED, 403],
      [GrpcStatus.RESOURCE_EXHAUSTED, 429],
      [GrpcStatus.FAILED_PRECONDITION, 400],
      [GrpcStatus.ABORTED, 409],
      [GrpcStatus.OUT_OF_RANGE, 400],
      [GrpcStatus.UNIMPLEMENTED, 501],
      [GrpcStatus.INTERNAL, 500],
      [GrpcStatus.UNAVAILABLE, 503],
      [GrpcStatus.DATA_LOSS, 500],
      [GrpcStatus.UNAUTHENTICATED, 401],
    ];
    for (const [code, http] of expected) assert.equal(httpStatusOf(code), http, GrpcStatus[code]);
    assert.equal(httpStatusOf(99 as GrpcStatus), 500);
  });

  it('prefers the explicit HTTP status of an error detail, when it is an error status', () => {
    const detail = { reason: 'SUBSCRIPTION_EXPIRED', message: 'renew', messages: [], metadata: {}, httpStatus: 402 };
    assert.equal(httpStatusOfError(new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'renew', detail)), 402);
    assert.equal(httpStatusOfError(new GrpcError(GrpcStatus.FAILED_PRECONDITION, 'renew', { ...detail, httpStatus: 200 })), 400);
    assert.equal(httpStatusOfError(new GrpcError(GrpcStatus.NOT_FOUND, 'gone')), 404);
  });
});
