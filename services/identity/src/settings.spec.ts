import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { ConfigError } from '@stormhook/config';
import { localInternalKeys } from '@stormhook/grpc';
import { loadConfig } from './config.js';
import { parseSettings } from './settings.js';

const base = {
  KAFKA_BROKERS: '127.0.0.1:9092',
  KAFKA_USERNAME: 'identity',
  KAFKA_PASSWORD: 'identity-password',
  MONGO_URL: 'mongodb://127.0.0.1:27017/',
  ...localInternalKeys({}),
  IDENTITY_JWT_PRIVATE_KEY: generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString(),
};
const { IDENTITY_JWT_PRIVATE_KEY: _key, ...keyless } = base;
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    parseSettings(loadConfig({ ...base, ...env }));
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((i) => `${i.variable} ${i.problem}`);
  }
};

describe('identity settings', () => {
  it('refuses to start without a signing key, naming it and the development switch', () => {
    for (const env of [keyless, { ...keyless, STORMHOOK_DEV_FALLBACKS: '0' }, { ...keyless, IDENTITY_JWT_PRIVATE_KEY: '' }]) {
      assert.throws(
        () => loadConfig(env),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.issues.length === 1 &&
          e.issues[0]?.variable === 'IDENTITY_JWT_PRIVATE_KEY' &&
          /required.*STORMHOOK_DEV_FALLBACKS=1/.test(e.message),
      );
    }
  });

  it('starts with the development switch and nothing else: development key, built-in plans, no link origin, no admin', () => {
    const config = loadConfig({ ...keyless, STORMHOOK_DEV_FALLBACKS: '1' });
    assert.equal(config.STORMHOOK_DEV_FALLBACKS, true);
    const settings = parseSettings(config);
    assert.equal(settings.signingKey, undefined);
    assert.deepEqual(settings.allowedLinkOrigins, []);
    assert.equal(settings.admin, undefined);
    assert.equal(settings.planTable.TRIAL.duration?.days, 14);
  });

  it('reads a PEM signing key, also with its line breaks written as \\n', () => {
    const pem = generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const settings = parseSettings(loadConfig({ ...base, IDENTITY_JWT_PRIVATE_KEY: pem.replace(/\n/g, '\\n') }));
    assert.equal(loadConfig(base).STORMHOOK_DEV_FALLBACKS, false, 'off unless set');
    assert.equal(settings.signingKey?.privateKey.asymmetricKeyType, 'ed25519');
  });

  it('names every bad variable and never echoes a key', () => {
    const rsa = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }).toString();
    const problems = problemsOf({ IDENTITY_JWT_PRIVATE_KEY: rsa, IDENTITY_PLAN_DEFAULTS: '{"GOLD": {}}', STORMHOOK_ADMIN_EMAIL: 'root@example.com' });
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0] ?? '', /^IDENTITY_JWT_PRIVATE_KEY must be an Ed25519 private key/);
    assert.match(problems[1] ?? '', /^IDENTITY_PLAN_DEFAULTS .*GOLD.*unknown plan/);
    assert.match(problems[2] ?? '', /^STORMHOOK_ADMIN_PASSWORD is required/);
    assert.ok(!problems.join('').includes('PRIVATE KEY-----\n'));
    assert.deepEqual(problemsOf({ IDENTITY_PLAN_DEFAULTS: 'not json' }), ['IDENTITY_PLAN_DEFAULTS must be JSON']);
    // Identity calls geo: it signs with a key of its own, which another service's does not replace.
    const withoutOwnKey = Object.fromEntries(Object.entries(base).filter(([name]) => name !== 'IDENTITY_INTERNAL_SIGNING_KEY'));
    assert.throws(() => loadConfig(withoutOwnKey), /IDENTITY_INTERNAL_SIGNING_KEY is required/);
  });

  it('validates link origins and the admin e-mail through the config schema', () => {
    assert.throws(() => loadConfig({ ...base, STORMHOOK_ALLOWED_LINK_ORIGINS: 'https://app.example.com/reset' }), /STORMHOOK_ALLOWED_LINK_ORIGINS/);
    assert.throws(() => loadConfig({ ...base, STORMHOOK_ADMIN_EMAIL: 'root' }), /STORMHOOK_ADMIN_EMAIL/);
    assert.throws(
      () => loadConfig({ ...base, STORMHOOK_ADMIN_PASSWORD: 'short' }),
      (e: unknown) => e instanceof Error && /STORMHOOK_ADMIN_PASSWORD/.test(e.message) && !e.message.includes('short'),
    );
    assert.deepEqual(
      parseSettings(loadConfig({ ...base, STORMHOOK_ALLOWED_LINK_ORIGINS: 'https://app.example.com, http://localhost:3000' })).allowedLinkOrigins,
      ['https://app.example.com', 'http://localhost:3000'],
    );
  });
});
