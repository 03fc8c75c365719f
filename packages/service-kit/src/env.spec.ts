import assert from 'node:assert/strict';
import { ConfigError, defineEnv } from '@stormhook/config';
import { newPrincipalKeyPair } from '@stormhook/grpc';
import { grpcEnv, principalSigningEnv } from './env.js';
import { principalPublicKeysOf, principalSigningKeyOf } from './internal-keys.js';

const pair = newPrincipalKeyPair();
const required = { INTERNAL_TOKEN_KEY: 'k'.repeat(32), INTERNAL_PRINCIPAL_PUBLIC_KEY: pair.publicKey };
const problemsOf = (run: () => unknown): string[] => {
  try {
    run();
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.issues.map((issue) => `${issue.variable} ${issue.problem}`);
  }
};

describe('service environment', () => {
  const loadGrpc = defineEnv(grpcEnv(50052));

  it('binds the gRPC server to 127.0.0.1 unless told otherwise (a laptop is not the network)', () => {
    const config = loadGrpc(required);
    assert.equal(config.GRPC_HOST, '127.0.0.1');
    assert.equal(config.GRPC_PORT, 50052);
    assert.equal(loadGrpc({ ...required, GRPC_HOST: '0.0.0.0' }).GRPC_HOST, '0.0.0.0');
  });

  it('requires the shared key and the principal public key of every gRPC service', () => {
    assert.deepEqual(
      problemsOf(() => loadGrpc({})),
      ['INTERNAL_TOKEN_KEY is required', 'INTERNAL_PRINCIPAL_PUBLIC_KEY is required'],
    );
  });

  it('checks the principal keys at start, naming the variable and never echoing a key', () => {
    assert.deepEqual(
      principalPublicKeysOf(loadGrpc(required)).map((key) => key.asymmetricKeyType),
      ['ed25519'],
    );
    const signing = defineEnv(principalSigningEnv);
    assert.equal(principalSigningKeyOf(signing({ INTERNAL_PRINCIPAL_SIGNING_KEY: pair.signingKey })).type, 'private');
    // The private key handed to a service by mistake, the public key to the gateway, and garbage.
    const problems = [
      ...problemsOf(() => principalPublicKeysOf(loadGrpc({ ...required, INTERNAL_PRINCIPAL_PUBLIC_KEY: pair.signingKey }))),
      ...problemsOf(() => principalSigningKeyOf(signing({ INTERNAL_PRINCIPAL_SIGNING_KEY: pair.publicKey }))),
      ...problemsOf(() => principalSigningKeyOf(signing({ INTERNAL_PRINCIPAL_SIGNING_KEY: 'not a key' }))),
    ];
    assert.equal(problems.length, 3, problems.join('\n'));
    assert.match(problems[0]!, /^INTERNAL_PRINCIPAL_PUBLIC_KEY must be one or more Ed25519 public keys in SPKI PEM \(.*private key/);
    assert.match(problems[1]!, /^INTERNAL_PRINCIPAL_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM/);
    assert.match(problems[2]!, /^INTERNAL_PRINCIPAL_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM/);
    assert.ok(!problems.join('\n').includes(pair.signingKey.split('\n')[1]!), 'no key material in a message');
  });
});
