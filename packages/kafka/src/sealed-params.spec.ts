import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { messageOpeningKey, messageSealingKey, openParams, sealParams } from './sealed-params.js';

describe('sealed message params', () => {
  const notifier = generateKeyPairSync('x25519');
  const params = { link: 'https://app.example/reset?userId=u1&token=s3cr3t-t0ken', firstName: 'Ayşe' };

  it('opens with the private key and the same message id only', () => {
    const sealed = sealParams(params, notifier.publicKey, 'msg_1');
    assert.deepEqual(openParams(sealed, notifier.privateKey, 'msg_1'), { ok: true, params });
    assert.equal(openParams(sealed, notifier.privateKey, 'msg_2').ok, false);
    assert.equal(openParams(sealed, generateKeyPairSync('x25519').privateKey, 'msg_1').ok, false);
    const tampered = Buffer.from(sealed);
    tampered[tampered.length - 1] = (tampered[tampered.length - 1] ?? 0) ^ 1;
    assert.equal(openParams(tampered, notifier.privateKey, 'msg_1').ok, false);
    assert.equal(openParams(Buffer.of(2, 3), notifier.privateKey, 'msg_1').ok, false);
  });

  it('shows nothing of the values, and differs every time', () => {
    const a = sealParams(params, notifier.publicKey, 'msg_1');
    const b = sealParams(params, notifier.publicKey, 'msg_1');
    assert.notDeepEqual(a, b);
    for (const form of [a.toString('latin1'), a.toString('base64'), a.toString('hex')]) assert.ok(!form.includes('s3cr3t'));
  });

  it('parses PEM keys and refuses the wrong kind', () => {
    const pub = notifier.publicKey.export({ format: 'pem', type: 'spki' }).toString();
    const priv = notifier.privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.equal(messageSealingKey(pub).asymmetricKeyType, 'x25519');
    assert.equal(messageOpeningKey(priv).type, 'private');
    assert.throws(() => messageSealingKey(priv), /private key/);
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }).toString();
    assert.throws(() => messageSealingKey(ed), /not X25519/);
  });
});
