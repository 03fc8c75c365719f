import assert from 'node:assert/strict';
import type { PublicWebhook } from './webhook-mapping.js';
import { maskedFieldOf, maskedUrl, webhookForViewer } from './webhook-masking.js';

const webhook: PublicWebhook = {
  accountId: 'acc-owner',
  url: 'https://hooks.example.com:8443/t/9f8e7d?key=s3cret',
  httpMethod: 'POST',
  contentType: 'application/json',
  authentication: { username: 'ops', password: '******' },
  requestHeaders: { 'X-Api-Key': 'k-123', 'X-Tenant': 'acme' },
  deliveryPolicy: { timeout: 4000, maxRetries: 2, retryDelay: 5 },
};

describe('webhooks as another account sees them', () => {
  it('shows the owner everything', () => {
    assert.deepEqual(webhookForViewer(webhook, 'acc-owner'), webhook);
  });

  it('masks path, query, header values and username for anyone else (no account included)', () => {
    for (const viewer of ['acc-other', undefined, '']) {
      const shown = webhookForViewer(webhook, viewer);
      assert.equal(shown.url, 'https://hooks.example.com:8443/******');
      assert.deepEqual(shown.requestHeaders, { 'X-Api-Key': '******', 'X-Tenant': '******' });
      assert.deepEqual(shown.authentication, { username: '******', password: '******' });
      assert.deepEqual(shown.deliveryPolicy, webhook.deliveryPolicy);
      assert.ok(!JSON.stringify(shown).match(/s3cret|k-123|acme|9f8e7d|ops/));
    }
    assert.equal(maskedUrl('not a url'), '******');
    assert.equal(maskedUrl(''), '');
  });

  it('names the field of a change that carries a masked value', () => {
    assert.equal(maskedFieldOf({ url: 'https://hooks.example.com/******' }), 'url');
    assert.equal(maskedFieldOf({ url: 'https://hooks.example.com/x', requestHeaders: { 'X-Api-Key': '******' } }), 'requestHeaders.X-Api-Key');
    assert.equal(maskedFieldOf({ authentication: { username: '******', password: '******' } }), 'authentication.username');
    assert.equal(
      maskedFieldOf({ url: 'https://hooks.example.com/x', authentication: { password: '******' } }),
      undefined,
      'a masked password keeps the stored one',
    );
  });
});
