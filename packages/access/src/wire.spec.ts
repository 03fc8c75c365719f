import assert from 'node:assert/strict';
import type { AccessSnapshot } from './snapshot.js';
import { snapshotFromMessage, snapshotMessage } from './wire.js';

describe('access snapshot on the wire', () => {
  const base: AccessSnapshot = { userId: '3f1c6a52-3c1e-4f0b-9d54-0c9f3a2b7e10', username: 'ada@example.com', role: 'STANDARD_USER', status: 'ACTIVE' };

  it('carries the instant access tokens count from, so the gateway refuses older ones', () => {
    const sent = snapshotMessage({ ...base, accessTokensValidFrom: new Date(1_700_000_001_000) });
    assert.equal(Number(sent.accessTokensValidFromEpochMs), 1_700_000_001_000);
    assert.deepEqual(snapshotFromMessage(sent)?.accessTokensValidFrom, new Date(1_700_000_001_000));
  });

  it('leaves it out while no tokens were ended', () => {
    const sent = snapshotMessage(base);
    assert.equal(sent.accessTokensValidFromEpochMs, undefined);
    assert.equal('accessTokensValidFrom' in (snapshotFromMessage(sent) ?? {}), false);
  });
});
