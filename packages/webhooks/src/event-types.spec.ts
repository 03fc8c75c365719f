import assert from 'node:assert/strict';
import { WEBHOOK_EVENT_TYPES, webhookEnvelope, webhookEventType } from './event-types.js';

describe('webhook event types', () => {
  it('names every kind and phase the pipeline raises, and nothing else', () => {
    const raised = [
      ['LIGHTNING', 'START'],
      ['LIGHTNING', 'ALL_CLEAR'],
      ['THUNDERSTORM', 'START'],
      ['THUNDERSTORM', 'UPDATE'],
      ['THUNDERSTORM', 'END'],
      ['PRECIPITATION', 'START'],
      ['PRECIPITATION', 'UPDATE'],
      ['PRECIPITATION', 'END'],
      ['FORECAST', 'START'],
      ['TEST', 'UNSPECIFIED'],
    ].map(([kind, phase]) => webhookEventType(kind as string, phase as string));
    assert.deepEqual(raised, [...WEBHOOK_EVENT_TYPES]);
    assert.equal(webhookEventType('LIGHTNING', 'END'), undefined);
    assert.equal(webhookEventType('PRECIPITATION', 'ALL_CLEAR'), undefined);
    assert.equal(webhookEventType('UNSPECIFIED', 'START'), undefined);
  });

  it('opens every payload with type, payload version and an ISO timestamp', () => {
    assert.deepEqual(webhookEnvelope('lightning.strike', Date.UTC(2026, 0, 2, 3, 4, 5, 6)), {
      type: 'lightning.strike',
      payloadVersion: 1,
      timestamp: '2026-01-02T03:04:05.006Z',
    });
  });
});
