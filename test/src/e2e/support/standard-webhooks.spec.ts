import assert from 'node:assert/strict';
import { signatureMatches, verificationProblem } from './standard-webhooks.js';

describe("the suite's own Standard Webhooks verifier", () => {
  // The golden vector of the reliability rules.
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
  const id = 'msg_p5jXN8AQM9LWM0D4loKWxJek';
  const body = '{"test": 2432232314}';

  it('accepts the golden vector, alone or beside another signature, and nothing else', () => {
    const good = 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=';
    assert.equal(signatureMatches(secret, id, '1614265330', body, good), true);
    assert.equal(signatureMatches(secret, id, '1614265330', body, `v1,AAAA ${good}`), true);
    assert.equal(signatureMatches(secret, id, '1614265331', body, good), false);
    assert.equal(signatureMatches(secret, id, '1614265330', `${body} `, good), false);
    assert.equal(signatureMatches('whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', id, '1614265330', body, good), false);
  });

  it('refuses stale timestamps and missing headers', () => {
    const headers = { 'webhook-id': id, 'webhook-timestamp': '1614265330', 'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
    assert.equal(verificationProblem(secret, headers, body, 1614265330_000), undefined);
    assert.match(verificationProblem(secret, headers, body, 1614265330_000 + 600_000) ?? '', /within 5 minutes/);
    assert.match(verificationProblem(secret, { ...headers, 'webhook-id': undefined }, body, 1614265330_000) ?? '', /missing/);
  });
});
