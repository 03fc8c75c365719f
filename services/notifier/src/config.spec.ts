import assert from 'node:assert/strict';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '@stormhook/config';
import { localInternalKeys } from '@stormhook/grpc';
import { loadConfig } from './config.js';
import { defaultDevOutboxDir, DEV_OUTBOX_RELATIVE } from './messaging/dev-outbox-location.js';
import { CredentialCipher, DEFAULT_KID, parseKeyring } from './security/credential-cipher.js';

const KEYS = localInternalKeys({});
const INTERNAL = {
  INTERNAL_PUBLIC_KEYS: KEYS.INTERNAL_PUBLIC_KEYS,
  NOTIFIER_MESSAGE_KEY: KEYS['NOTIFIER_MESSAGE_KEY'] ?? '',
  KAFKA_USERNAME: 'notifier',
  KAFKA_PASSWORD: 'notifier-password',
};
const problems = (env: Record<string, string>): string[] => {
  try {
    loadConfig({ ...INTERNAL, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map((i) => `${i.variable} ${i.problem}`);
    throw error;
  }
  return [];
};

describe('notifier config', () => {
  it('refuses to start without a credential key, naming it and the development switch', () => {
    const envs: Record<string, string>[] = [{}, { STORMHOOK_DEV_FALLBACKS: 'false' }, { CREDENTIAL_ENCRYPTION_KEY: '' }];
    for (const env of envs) {
      assert.deepEqual(
        problems(env).filter((p) => p.startsWith('CREDENTIAL_ENCRYPTION_KEY')),
        [
          'CREDENTIAL_ENCRYPTION_KEY is required; only a development stack may leave it unset, with STORMHOOK_DEV_FALLBACKS=1 (a key is then generated and kept in the database)',
        ],
      );
    }
    assert.deepEqual(problems({ CREDENTIAL_ENCRYPTION_KEY: randomBytes(32).toString('base64') }), []);
  });

  it('starts with only the development switch set: no key, no providers, empty SSRF allow-list, no metrics port', () => {
    const config = loadConfig({ ...INTERNAL, STORMHOOK_DEV_FALLBACKS: '1' });
    assert.equal(config.STORMHOOK_DEV_FALLBACKS, true);
    assert.equal(config.CREDENTIAL_ENCRYPTION_KEY, undefined);
    assert.equal(config.NOTIFIER_SSRF_ALLOW_CIDRS, undefined);
    assert.equal(config.SMTP_URL, undefined);
    assert.equal(config.METRICS_PORT, undefined);
    assert.equal(config.NOTIFIER_LEASE_MS, 60_000);
  });

  it('names the bad variable: key, CIDR, lease shorter than the longest attempt, SMS without token', () => {
    assert.match(problems({ CREDENTIAL_ENCRYPTION_KEY: 'c2hvcnQ=' }).join(), /CREDENTIAL_ENCRYPTION_KEY .*32 bytes/);
    assert.match(problems({ NOTIFIER_SSRF_ALLOW_CIDRS: '127.0.0.1/33' }).join(), /NOTIFIER_SSRF_ALLOW_CIDRS/);
    assert.match(problems({ NOTIFIER_LEASE_MS: '10000' }).join(), /NOTIFIER_LEASE_MS/);
    assert.match(problems({ SMS_GATEWAY_URL: 'https://sms.example.com/send' }).join(), /SMS_GATEWAY_TOKEN is required/);
    assert.match(problems({ SMTP_URL: 'http://mail.example.com' }).join(), /SMTP_URL/);
    const ed25519 = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    assert.match(problems({ NOTIFIER_MESSAGE_KEY: ed25519 }).join(), /NOTIFIER_MESSAGE_KEY must be an X25519 private key/);
  });

  it('takes a bare base64 key (kid "default") or a keyring whose first key encrypts and all decrypt', () => {
    const oldKey = randomBytes(32).toString('base64');
    const bare = parseKeyring(oldKey);
    assert.equal(bare.currentKid, DEFAULT_KID);
    const sealed = new CredentialCipher(bare).encrypt('s3cret', 'webhook_endpoints/ep_1/auth.password');
    const rotated = parseKeyring(`k2:${randomBytes(32).toString('base64')},${DEFAULT_KID}:${oldKey}`);
    assert.equal(rotated.currentKid, 'k2');
    assert.equal(new CredentialCipher(rotated).decrypt(sealed, 'webhook_endpoints/ep_1/auth.password'), 's3cret');
  });

  it('puts the development outbox under the repository root', () => {
    const dir = defaultDevOutboxDir('/');
    assert.ok(dir.endsWith(DEV_OUTBOX_RELATIVE));
    assert.ok(existsSync(join(dir, '..', '..', '..', 'pnpm-workspace.yaml')), `${dir} is three levels under the root`);
  });
});
