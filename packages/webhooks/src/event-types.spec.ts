import assert from 'node:assert/strict';
import { webhookEnvelope } from './event-types.js';

describe('webhook event types', () => {
  it('opens every payload with type, payload version and an ISO timestamp', () => {
    assert.deepEqual(webhookEnvelope('lightning.strike', Date.UTC(2026, 0, 2, 3, 4, 5, 6)), {
      type: 'lightning.strike',
      payloadVersion: 2,
      timestamp: '2026-01-02T03:04:05.006Z',
    });
  });
});
