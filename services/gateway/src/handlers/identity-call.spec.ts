import assert from 'node:assert/strict';
import type { Request } from 'express';
import { clientAddress } from './identity-call.js';

const req = (peer: string, forwarded?: string): Request =>
  ({ socket: { remoteAddress: peer }, headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded } }) as unknown as Request;

describe('clientAddress', () => {
  it('uses the peer when no proxy is trusted, whatever the client claims', () => {
    assert.equal(clientAddress(req('10.0.0.5', '1.2.3.4'), 0), '10.0.0.5');
  });

  it('reads X-Forwarded-For from the right, one entry per trusted proxy', () => {
    // The client forged 6.6.6.6; the load balancer appended the address it saw, 203.0.113.9.
    assert.equal(clientAddress(req('10.0.0.5', '6.6.6.6, 203.0.113.9'), 1), '203.0.113.9');
    assert.equal(clientAddress(req('10.0.0.5', '6.6.6.6, 203.0.113.9, 10.0.0.7'), 2), '203.0.113.9');
    assert.equal(clientAddress(req('10.0.0.5'), 1), '10.0.0.5');
  });
});
