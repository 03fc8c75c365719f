import assert from 'node:assert/strict';
import { classifyFailure, failureKey, parseFailureKey } from './failure-class.js';

const error = (fields: { blocked?: boolean; timedOut?: boolean; code?: string }) => ({
  kind: 'error' as const,
  blocked: fields.blocked ?? false,
  timedOut: fields.timedOut ?? false,
  code: fields.code,
  message: 'x',
});

describe('failure classes', () => {
  it('classes transport failures by what the owner must fix', () => {
    assert.equal(classifyFailure(error({ timedOut: true, code: 'ETIMEDOUT' })).failureClass, 'TIMEOUT');
    assert.equal(classifyFailure(error({ code: 'ECONNREFUSED' })).failureClass, 'CONNECTION_REFUSED');
    assert.equal(classifyFailure(error({ code: 'ENOTFOUND' })).failureClass, 'DNS');
    assert.equal(classifyFailure(error({ code: 'EAI_AGAIN' })).failureClass, 'DNS');
    assert.equal(classifyFailure(error({ code: 'CERT_HAS_EXPIRED' })).failureClass, 'TLS');
    assert.equal(classifyFailure(error({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' })).failureClass, 'TLS');
    assert.equal(classifyFailure(error({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' })).failureClass, 'TLS');
    assert.equal(classifyFailure(error({ code: 'ECONNRESET' })).failureClass, 'CONNECTION_ERROR');
    assert.equal(classifyFailure(error({})).failureClass, 'CONNECTION_ERROR');
  });

  it('puts the SSRF refusal first: a blocked address is never the receiver timing out', () => {
    assert.equal(classifyFailure(error({ blocked: true, timedOut: true })).failureClass, 'SSRF_BLOCKED');
  });

  it('classes answers by status and keeps the status for grouping', () => {
    assert.deepEqual(classifyFailure({ kind: 'response', statusCode: 503 }), { failureClass: 'HTTP_5XX', status: 503 });
    assert.deepEqual(classifyFailure({ kind: 'response', statusCode: 404 }), { failureClass: 'HTTP_4XX', status: 404 });
    assert.deepEqual(classifyFailure({ kind: 'response', statusCode: 301 }), { failureClass: 'HTTP_3XX', status: 301 });
    assert.deepEqual(classifyFailure({ kind: 'response', statusCode: 200 }), { failureClass: 'ACKNOWLEDGEMENT', status: 200 });
  });

  it('round-trips the grouping key and refuses a foreign one', () => {
    for (const failure of [classifyFailure({ kind: 'response', statusCode: 502 }), classifyFailure(error({ code: 'ENOTFOUND' }))]) {
      assert.deepEqual(parseFailureKey(failureKey(failure)), failure);
    }
    assert.equal(parseFailureKey('HTTP_5XX:abc'), undefined);
    assert.equal(parseFailureKey('NOT_A_CLASS'), undefined);
  });
});
