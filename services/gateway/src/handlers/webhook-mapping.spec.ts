import assert from 'node:assert/strict';
import { notificationV1 } from '@stormhook/proto';
import { toEndpointConfig, toPublicWebhook, type PublicWebhookInput, type WebhookMapping } from './webhook-mapping.js';

const ACCOUNT = '0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b';

function mapped(webhook: PublicWebhookInput, options?: Parameters<typeof toEndpointConfig>[1]): notificationV1.WebhookEndpointConfig {
  const result = toEndpointConfig(webhook, options);
  assert.ok(result.ok, result.ok ? '' : result.message);
  // What the notifier receives: through the wire format, so optional-field presence is what protobuf keeps.
  return notificationV1.WebhookEndpointConfig.decode(notificationV1.WebhookEndpointConfig.encode(result.value));
}

function refused(result: WebhookMapping<unknown>): { field: string; message: string } {
  assert.equal(result.ok, false);
  return result as { field: string; message: string };
}

const typeOf = (webhook: PublicWebhookInput, options?: Parameters<typeof toEndpointConfig>[1]) => mapped(webhook, options).authentication?.type;

describe('toEndpointConfig', () => {
  it('maps the whole public webhook, units renamed (timeout ms, retryDelay s)', () => {
    const config = mapped({
      url: 'https://hooks.example.com/alarms',
      httpMethod: 'PUT',
      contentType: 'application/json',
      authentication: { type: 'BASIC', username: 'ops', password: 's3cret' },
      requestHeaders: { 'X-Tenant': 'acme' },
      deliveryPolicy: { timeout: 5000, maxRetries: 3, retryDelay: 10 },
    });
    assert.equal(config.url, 'https://hooks.example.com/alarms');
    assert.equal(config.httpMethod, 'PUT');
    assert.equal(config.contentType, 'application/json');
    assert.deepEqual(config.authentication, { type: 'WEBHOOK_AUTH_TYPE_BASIC', username: 'ops', password: 's3cret' });
    assert.deepEqual(config.requestHeaders, { 'X-Tenant': 'acme' });
    assert.deepEqual(config.deliveryPolicy, { timeoutMs: 5000, maxRetries: 3, retryDelaySeconds: 10 });
  });

  it('leaves absent policy fields unset, and an explicit 0 set (the notifier validates it)', () => {
    assert.deepEqual(mapped({ url: 'https://x.example', deliveryPolicy: { maxRetries: 0 } }).deliveryPolicy, { maxRetries: 0 });
    assert.deepEqual(mapped({ url: 'https://x.example', deliveryPolicy: { timeout: 800 } }).deliveryPolicy, { timeoutMs: 800 });
    assert.equal(mapped({ url: 'https://x.example' }).deliveryPolicy, null);
  });

  it('names every public auth type, the aliases API_KEY and JWT included, in any case', () => {
    const cases: Array<[string, notificationV1.WebhookAuthType]> = [
      ['NONE', 'WEBHOOK_AUTH_TYPE_NONE'],
      ['BASIC', 'WEBHOOK_AUTH_TYPE_BASIC'],
      ['API_KEY', 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER'],
      ['API_KEY_HEADER', 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER'],
      ['API_KEY_QUERY', 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY'],
      ['BEARER', 'WEBHOOK_AUTH_TYPE_BEARER'],
      ['JWT', 'WEBHOOK_AUTH_TYPE_BEARER'],
      ['HMAC', 'WEBHOOK_AUTH_TYPE_HMAC'],
      ['bearer', 'WEBHOOK_AUTH_TYPE_BEARER'],
    ];
    for (const [name, expected] of cases) assert.equal(typeOf({ url: 'https://x.example', authentication: { type: name, password: 'k' } }), expected, name);
  });

  it('refuses an unknown auth type naming webhook.authentication.type (or the given path)', () => {
    const problem = refused(toEndpointConfig({ url: 'https://x.example', authentication: { type: 'OAUTH2', password: 'k' } }));
    assert.equal(problem.field, 'webhook.authentication.type');
    assert.match(problem.message, /^webhook\.authentication\.type must be one of NONE, BASIC, API_KEY, .*HMAC$/);
    const nested = refused(toEndpointConfig({ authentication: { type: 'DIGEST' } }, { field: 'registration.webhook' }));
    assert.equal(nested.field, 'registration.webhook.authentication.type');
  });

  it("resolves the incumbent's API_KEY flags to header or query mode and refuses contradictions", () => {
    const key = (auth: Record<string, unknown>) => ({ url: 'https://x.example', authentication: { password: 'k', ...auth } });
    assert.equal(typeOf(key({ type: 'API_KEY', asQueryParameter: true })), 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY');
    assert.equal(typeOf(key({ type: 'API_KEY', asHeader: true, asQueryParameter: false })), 'WEBHOOK_AUTH_TYPE_API_KEY_HEADER');
    assert.equal(typeOf(key({ asQueryParameter: true })), 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY');
    assert.equal(refused(toEndpointConfig(key({ type: 'API_KEY', asHeader: true, asQueryParameter: true }))).field, 'webhook.authentication.asQueryParameter');
    assert.equal(refused(toEndpointConfig(key({ type: 'API_KEY_HEADER', asQueryParameter: true }))).field, 'webhook.authentication.asQueryParameter');
    assert.equal(refused(toEndpointConfig(key({ type: 'API_KEY_QUERY', asHeader: true }))).field, 'webhook.authentication.asHeader');
    assert.equal(refused(toEndpointConfig(key({ type: 'BASIC', username: 'u', asHeader: true }))).field, 'webhook.authentication.asHeader');
  });

  it('keeps the stored type when the request leaves it out (what a read answers), and asks for it on a new webhook', () => {
    assert.equal(
      typeOf({ url: 'https://x.example', authentication: { username: 'ops', password: '******' } }, { storedAuthType: 'WEBHOOK_AUTH_TYPE_BASIC' }),
      'WEBHOOK_AUTH_TYPE_BASIC',
    );
    const problem = refused(toEndpointConfig({ url: 'https://x.example', authentication: { password: 'k' } }));
    assert.equal(problem.field, 'webhook.authentication.type');
    assert.match(problem.message, /is required with credentials/);
    assert.equal(typeOf({ url: 'https://x.example', authentication: {} }), 'WEBHOOK_AUTH_TYPE_NONE');
    assert.equal(mapped({ url: 'https://x.example' }).authentication, null);
  });
});

describe('toPublicWebhook', () => {
  const endpoint = (authentication: Partial<notificationV1.WebhookAuthentication> | null, policy?: Partial<notificationV1.WebhookDeliveryPolicy>) =>
    notificationV1.WebhookEndpoint.decode(
      notificationV1.WebhookEndpoint.encode(
        notificationV1.WebhookEndpoint.create({
          accountId: ACCOUNT,
          config: {
            url: 'https://hooks.example.com/alarms',
            httpMethod: 'POST',
            contentType: 'application/json',
            authentication,
            requestHeaders: { 'X-Tenant': 'acme' },
            ...(policy ? { deliveryPolicy: policy } : {}),
          },
        }),
      ),
    );

  it('answers 2.2 without authentication.type, password masked, policy in public units', () => {
    const shown = toPublicWebhook(
      endpoint({ type: 'WEBHOOK_AUTH_TYPE_BASIC', username: 'ops', password: 'clear-text-leak' }, { timeoutMs: 5000, maxRetries: 3, retryDelaySeconds: 10 }),
    );
    assert.deepEqual(shown, {
      accountId: ACCOUNT,
      url: 'https://hooks.example.com/alarms',
      httpMethod: 'POST',
      contentType: 'application/json',
      authentication: { username: 'ops', password: '******' },
      requestHeaders: { 'X-Tenant': 'acme' },
      deliveryPolicy: { timeout: 5000, maxRetries: 3, retryDelay: 10 },
    });
    assert.ok(!JSON.stringify(shown).includes('clear-text-leak'));
    assert.ok(!('type' in (shown.authentication ?? {})));
  });

  it('tells API key header from query mode with the incumbent flags, and leaves authentication out for NONE', () => {
    assert.deepEqual(toPublicWebhook(endpoint({ type: 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY', password: '******' })).authentication, {
      password: '******',
      asHeader: false,
      asQueryParameter: true,
    });
    assert.equal(toPublicWebhook(endpoint({ type: 'WEBHOOK_AUTH_TYPE_NONE' })).authentication, undefined);
    assert.equal(toPublicWebhook(endpoint(null)).authentication, undefined);
  });

  it('round-trips: what a read shows, sent back with the stored type, is the same configuration', () => {
    const stored = endpoint({ type: 'WEBHOOK_AUTH_TYPE_API_KEY_QUERY', password: '******' }, { timeoutMs: 2000, maxRetries: 1, retryDelaySeconds: 5 });
    const again = mapped(toPublicWebhook(stored), { storedAuthType: stored.config?.authentication?.type });
    assert.deepEqual(again, stored.config);
  });
});
