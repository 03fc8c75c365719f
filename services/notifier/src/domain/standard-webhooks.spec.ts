import assert from 'node:assert/strict';
import { signStandardWebhook, standardWebhookHeaders } from './standard-webhooks.js';
import { generateSigningSecret, signingKey } from './signing-secret.js';

describe('Standard Webhooks signer', () => {
  it('matches the golden vector of the reliability rules', () => {
    assert.equal(
      signStandardWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
  });

  it('signs with the key of each secret, also when the key object of another is cached', () => {
    const other = generateSigningSecret();
    const first = signStandardWebhook(other, 'msg_1', 1614265330, 'body');
    assert.equal(
      signStandardWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
      'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    );
    assert.equal(signStandardWebhook(other, 'msg_1', 1614265330, 'body'), first);
    assert.notEqual(signStandardWebhook(generateSigningSecret(), 'msg_1', 1614265330, 'body'), first);
  });

  it('sends one signature per active secret, space separated', () => {
    const headers = standardWebhookHeaders(['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', generateSigningSecret()], 'msg_1', 1614265330, 'body');
    assert.equal(headers['webhook-id'], 'msg_1');
    assert.equal(headers['webhook-timestamp'], '1614265330');
    assert.equal(headers['webhook-signature']?.split(' ').length, 2);
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateSigningSecret();
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    assert.equal(signingKey(secret).length, 32);
    assert.notEqual(generateSigningSecret(), secret);
  });
});
