import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DEFAULT_DELIVERY_POLICY } from '../domain/delivery-policy.js';
import { newWebhookEndpoint, type WebhookEndpoint } from '../domain/endpoint.js';
import { CredentialCipher, DEFAULT_KID } from '../security/credential-cipher.js';
import { fromEndpointDocument, toEndpointDocument } from './endpoint-document.js';

describe('endpoint documents', () => {
  const cipher = new CredentialCipher({ currentKid: DEFAULT_KID, keys: new Map([[DEFAULT_KID, randomBytes(32)]]) });
  const now = new Date('2026-01-01T00:00:00Z');
  const endpoint: WebhookEndpoint = newWebhookEndpoint(
    {
      url: 'https://hooks.example.com/in',
      httpMethod: 'POST',
      contentType: 'application/json',
      authentication: { type: 'NONE', username: '', password: '' },
      requestHeaders: { 'X-Api-Key': 'sk_live_do_not_store_in_clear', 'X-Tenant.Flag': 'on' },
      deliveryPolicy: DEFAULT_DELIVERY_POLICY,
    },
    { id: 'ep_1', accountId: 'acc-1', signingSecret: 'whsec_' + Buffer.alloc(32, 7).toString('base64'), now },
  );

  it('stores custom header values encrypted, like credentials, and reads them back', () => {
    const doc = toEndpointDocument(endpoint, cipher);
    assert.ok(!JSON.stringify(doc).includes('sk_live_do_not_store_in_clear'), 'no header value in clear');
    assert.deepEqual(
      doc.requestHeaders.map((h) => h.name),
      ['X-Api-Key', 'X-Tenant.Flag'],
    );
    assert.deepEqual(fromEndpointDocument(doc, cipher).requestHeaders, endpoint.requestHeaders);
  });

  it('binds each value to its header: a value moved under another name fails to decrypt', () => {
    const doc = toEndpointDocument(endpoint, cipher);
    const [first, second] = doc.requestHeaders;
    const swapped = {
      ...doc,
      requestHeaders: [
        { name: first!.name, value: second!.value },
        { name: second!.name, value: first!.value },
      ],
    };
    assert.throws(() => fromEndpointDocument(swapped, cipher));
  });

  it('reads a value stored in clear before values were encrypted', () => {
    const doc = { ...toEndpointDocument(endpoint, cipher), requestHeaders: [{ name: 'X-Tenant', value: 'acme' }] };
    assert.deepEqual(fromEndpointDocument(doc, cipher).requestHeaders, { 'X-Tenant': 'acme' });
  });
});
