import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { validateAuthentication } from './authentication.js';
import { validateDeliveryPolicy } from './delivery-policy.js';
import { validateRequestHeaders } from './request-headers.js';
import { hmacSignedString } from './hmac-auth.js';
import { CredentialCipher, parseKeyring } from '../security/credential-cipher.js';

describe('endpoint rules', () => {
  it('names the field and unit of an out-of-bounds policy', () => {
    const result = validateDeliveryPolicy({ timeoutMs: 60 });
    assert.ok(!result.ok);
    assert.equal(result.error.kind === 'validation' && result.error.field, 'webhook.deliveryPolicy.timeout');
    assert.match(result.error.message, /between 500 and 30000 milliseconds/);
    const defaults = validateDeliveryPolicy(undefined);
    assert.deepEqual(defaults.ok && defaults.value, { timeoutMs: 5_000, maxRetries: 3, retryDelaySeconds: 10 });
  });

  it('reserves framing, signature and auth headers', () => {
    for (const name of ['Content-Type', 'host', 'Transfer-Encoding', 'User-Agent', 'webhook-id', 'Webhook-Signature']) {
      assert.equal(validateRequestHeaders({ [name]: 'x' }, 'NONE').ok, false, name);
    }
    assert.equal(validateRequestHeaders({ Authorization: 'x' }, 'NONE').ok, true, 'authorization is free without auth');
    assert.equal(validateRequestHeaders({ Authorization: 'x' }, 'BASIC').ok, false);
    assert.equal(validateRequestHeaders({ 'X-Signature': 'x' }, 'HMAC').ok, false);
    assert.equal(validateRequestHeaders({ 'X-Ok': 'a\r\nb' }, 'NONE').ok, false);
  });

  it('accepts the incumbent names and keeps a masked password on update', () => {
    const apiKey = validateAuthentication({ type: 'API_KEY', password: 'k' });
    assert.equal(apiKey.ok && apiKey.value.type, 'API_KEY_HEADER');
    const jwt = validateAuthentication({ type: 'jwt', password: 't' });
    assert.equal(jwt.ok && jwt.value.type, 'BEARER');
    const kept = validateAuthentication({ type: 'BASIC', username: 'u', password: '******' }, { type: 'BASIC', username: 'u', password: 'old' });
    assert.equal(kept.ok && kept.value.password, 'old');
    assert.equal(validateAuthentication({ type: 'BASIC', username: 'u' }).ok, false);
    assert.equal(validateAuthentication({ type: 'KERBEROS' }).ok, false);
  });

  it('documents the HMAC signed string', () => {
    assert.equal(hmacSignedString('post', new URL('https://h/p/a?x=1'), 1726286415123, '{"a":1}'), 'POST|/p/a?x=1|1726286415123|{"a":1}');
  });

  it('encrypts credentials with AES-256-GCM bound to the record', () => {
    const cipher = new CredentialCipher(parseKeyring(`k1:${randomBytes(32).toString('base64')}`));
    const a = cipher.encrypt('s3cret', 'webhook_endpoints/ep_1/auth.password');
    const b = cipher.encrypt('s3cret', 'webhook_endpoints/ep_1/auth.password');
    assert.notEqual(a.iv, b.iv, 'random nonce');
    assert.equal(cipher.decrypt(a, 'webhook_endpoints/ep_1/auth.password'), 's3cret');
    assert.throws(() => cipher.decrypt(a, 'webhook_endpoints/ep_2/auth.password'), 'moved to another record');
    assert.throws(() => cipher.decrypt({ ...a, ct: Buffer.from('x').toString('base64') }, 'webhook_endpoints/ep_1/auth.password'));
  });
});
