import assert from 'node:assert/strict';
import { notificationV1 } from '@stormhook/proto';
import { decideWebhook, webhookDifferences } from './webhook-rules.js';

const OWNER = '11111111-2222-4333-8444-555555555555';
const OTHER = '99999999-2222-4333-8444-555555555555';

function config(overrides: Parameters<typeof notificationV1.WebhookEndpointConfig.create>[0] = {}): notificationV1.WebhookEndpointConfig {
  return notificationV1.WebhookEndpointConfig.create({
    url: 'https://hooks.example.com/alarms',
    httpMethod: 'POST',
    contentType: 'application/json',
    authentication: { type: 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER', username: 'svc', password: 'secret' },
    requestHeaders: { 'X-Tenant': 'a' },
    deliveryPolicy: { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 },
    ...overrides,
  });
}

const STORED = { ...config(), authentication: { type: 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER' as const, username: 'svc', password: '******' } };

describe('webhook rules (contract section 3)', () => {
  it('rule 1: the first registration stores the complete webhook', () => {
    const decision = decideWebhook({ accountId: '', config: config() }, OWNER, undefined);
    assert.ok(decision.ok && decision.value.action === 'create');
  });

  it('rule 2: a later registration with only accountId reuses the stored webhook', () => {
    const decision = decideWebhook({ accountId: OWNER }, OWNER, STORED);
    assert.ok(decision.ok);
    assert.deepEqual(decision.value, { action: 'reuse', warnings: [] });
  });

  it('rule 3: an accountId without a stored webhook fails, as does another account id', () => {
    const missing = decideWebhook({ accountId: OWNER }, OWNER, undefined);
    assert.ok(!missing.ok && missing.error.kind === 'precondition' && missing.error.reason === 'WEBHOOK_NOT_FOUND');
    assert.match(missing.error.message, /without accountId on the first registration/);
    const foreign = decideWebhook({ accountId: OTHER }, OWNER, STORED);
    assert.ok(!foreign.ok && foreign.error.kind === 'precondition' && foreign.error.reason === 'WEBHOOK_ACCOUNT_MISMATCH');
    assert.doesNotMatch(foreign.error.message, /stored/, 'says nothing about the other account');
  });

  it('rule 4: a complete webhook that differs is refused, naming the fields and the update operation', () => {
    const decision = decideWebhook(
      { accountId: '', config: config({ url: 'https://other.example.com/x', deliveryPolicy: { timeoutMs: 9_000, maxRetries: 3, retryDelaySeconds: 10 } }) },
      OWNER,
      STORED,
    );
    assert.ok(!decision.ok && decision.error.kind === 'conflict' && decision.error.reason === 'WEBHOOK_DIFFERS');
    assert.match(decision.error.message, /\(url, deliveryPolicy\.timeout\)/);
    assert.match(decision.error.message, /PUT \/v1\/alarms\/webhooks\/update/);
  });

  it('reuses an identical complete webhook, noting that the password was not compared', () => {
    const decision = decideWebhook({ accountId: '', config: config() }, OWNER, STORED);
    assert.ok(decision.ok && decision.value.action === 'reuse');
    assert.match(decision.value.warnings[0] ?? '', /password is stored encrypted and was not compared/);
  });

  it('compares with the notifier defaults and ignores header name case', () => {
    const plain = notificationV1.WebhookEndpointConfig.create({ url: 'https://hooks.example.com/alarms', requestHeaders: { 'x-tenant': 'a' } });
    const stored = notificationV1.WebhookEndpointConfig.create({
      url: 'https://hooks.example.com/alarms',
      httpMethod: 'POST',
      contentType: 'application/json',
      authentication: { type: 'WEBHOOK_AUTH_TYPE_NONE' },
      requestHeaders: { 'X-Tenant': 'a' },
      deliveryPolicy: { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 },
    });
    assert.deepEqual(webhookDifferences(plain, stored), []);
    assert.deepEqual(webhookDifferences({ ...plain, requestHeaders: { 'x-tenant': 'b' } }, stored), ['requestHeaders']);
    assert.deepEqual(webhookDifferences({ ...plain, httpMethod: 'PUT' }, stored), ['httpMethod']);
  });
});
