import assert from 'node:assert/strict';
import { buildOpenApiDocument, ROUTES } from '@stormhook/gateway';
import { WEBHOOK_EVENT_TYPES } from '@stormhook/webhooks';
import { CallbackSchemas, type CapturedCallback } from './callback-schemas.js';

/** A webhook.test body as the notifier sends it (notifier README). */
const testBody = {
  type: 'webhook.test',
  payloadVersion: 2,
  timestamp: '2026-01-02T03:04:05.000Z',
  id: 'ntf_1',
  accountId: 'acc-1',
  message: 'This is a test delivery from Stormhook.',
  timeEpochMillis: 1_767_323_045_000,
};

const captured = (body: unknown, eventType: string | null = 'webhook.test', contentType = 'application/json'): CapturedCallback => ({
  headers: { 'content-type': contentType, 'webhook-id': 'ntf_1', ...(eventType === null ? {} : { 'webhook-event-type': eventType }) },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

describe('CallbackSchemas (payloads checked against the OpenAPI webhooks section)', () => {
  // The gateway's own builder: the document /v1/openapi.json serves.
  const schemas = new CallbackSchemas(buildOpenApiDocument(ROUTES));

  it('reads every event type of the catalogue from the document', () => {
    assert.deepEqual(schemas.types, [...WEBHOOK_EVENT_TYPES]);
  });

  it('accepts a sound body, as JSON and as the payload field of a form', () => {
    assert.deepEqual(schemas.problems(captured(testBody)), []);
    const form = `payload=${encodeURIComponent(JSON.stringify(testBody))}`;
    assert.deepEqual(schemas.problems(captured(form, 'webhook.test', 'application/x-www-form-urlencoded')), []);
  });

  it('names a missing field and a wrong value, resolving the $ref of the webhooks entry', () => {
    const { accountId: _dropped, ...withoutAccount } = testBody;
    const problems = schemas.problems(captured({ ...withoutAccount, payloadVersion: 1 }));
    assert.ok(
      problems.some((p) => p.includes('accountId')),
      problems.join('\n'),
    );
    assert.ok(
      problems.some((p) => p.startsWith('webhook.test/payloadVersion')),
      problems.join('\n'),
    );
  });

  it('refuses an event type header other than the body type, and a type outside the section', () => {
    assert.deepEqual(schemas.problems(captured(testBody, 'lightning.strike')), [
      'the webhook-event-type header is "lightning.strike", the body\'s type webhook.test',
    ]);
    assert.match(schemas.problems(captured(testBody, null))[0]!, /header is undefined/);
    assert.deepEqual(schemas.problems(captured({ ...testBody, type: 'TEST' })), ['type "TEST" is not an event type of the OpenAPI webhooks section']);
    assert.match(schemas.problems(captured('not json'))[0]!, /not a JSON object/);
  });
});
