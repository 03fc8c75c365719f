import assert from 'node:assert/strict';
import { ConfigError, defineEnv } from '@stormhook/config';
import { InternalTokenSigner, newServiceKeyPair } from '@stormhook/grpc';
import { grpcEnv, internalSigningEnv } from './env.js';
import { internalVerifierOf, signingKeyOf } from './internal-keys.js';

const gateway = newServiceKeyPair();
const matcher = newServiceKeyPair();
const publicKeys = (keys: Record<string, string>) => ({ INTERNAL_PUBLIC_KEYS: JSON.stringify(keys) });
const required = publicKeys({ gateway: gateway.publicKey, 'alarm-matcher': matcher.publicKey });
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

  it('requires the public keys in every gRPC service, and its own signing key in a calling service', () => {
    assert.deepEqual(
      problemsOf(() => loadGrpc({})),
      ['INTERNAL_PUBLIC_KEYS is required'],
    );
    const loadMatcher = defineEnv({ ...grpcEnv(50055), ...internalSigningEnv('alarm-matcher') });
    assert.deepEqual(
      problemsOf(() => loadMatcher({ ...required, GATEWAY_INTERNAL_SIGNING_KEY: gateway.signingKey })),
      ['ALARM_MATCHER_INTERNAL_SIGNING_KEY is required'],
      "another service's key is not this one's",
    );
    assert.equal(signingKeyOf(loadMatcher({ ...required, ALARM_MATCHER_INTERNAL_SIGNING_KEY: matcher.signingKey }), 'alarm-matcher').type, 'private');
  });

  it("verifies with the callers' keys from the map, and names the variable and the caller whose key is missing", () => {
    const verifier = internalVerifierOf(loadGrpc(required), 'notifier');
    const token = new InternalTokenSigner({ key: matcher.signingKey, issuer: 'alarm-matcher' }).sign('notifier').token;
    assert.equal(verifier.verify(token).ok, true);
    // Ingest is called by the gateway alone: the alarm-matcher's entry is not needed there.
    assert.doesNotThrow(() => internalVerifierOf(loadGrpc(publicKeys({ gateway: gateway.publicKey })), 'ingest'));
    const [problem] = problemsOf(() => internalVerifierOf(loadGrpc(publicKeys({ gateway: gateway.publicKey })), 'notifier'));
    assert.match(problem!, /^INTERNAL_PUBLIC_KEYS must be .*caller of notifier \(gateway, alarm-matcher\).*no public key of alarm-matcher/);
  });

  it('checks the keys at start, naming the variable and never echoing a key', () => {
    const loadGateway = defineEnv(internalSigningEnv('gateway'));
    // The private key handed to a verifier by mistake, the public key to a signer, garbage, and not JSON.
    const problems = [
      ...problemsOf(() => internalVerifierOf(loadGrpc(publicKeys({ gateway: gateway.signingKey })), 'identity')),
      ...problemsOf(() => signingKeyOf(loadGateway({ GATEWAY_INTERNAL_SIGNING_KEY: gateway.publicKey }), 'gateway')),
      ...problemsOf(() => signingKeyOf(loadGateway({ GATEWAY_INTERNAL_SIGNING_KEY: 'not a key' }), 'gateway')),
      ...problemsOf(() => internalVerifierOf(loadGrpc({ INTERNAL_PUBLIC_KEYS: gateway.publicKey }), 'identity')),
    ];
    assert.equal(problems.length, 4, problems.join('\n'));
    assert.match(problems[0]!, /^INTERNAL_PUBLIC_KEYS must be .*public key of gateway: .*private key/);
    assert.match(problems[1]!, /^GATEWAY_INTERNAL_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM/);
    assert.match(problems[2]!, /^GATEWAY_INTERNAL_SIGNING_KEY must be an Ed25519 private key in PKCS#8 PEM/);
    assert.match(problems[3]!, /^INTERNAL_PUBLIC_KEYS must be .*not JSON/);
    assert.ok(!problems.join('\n').includes(gateway.signingKey.split('\n')[1]!), 'no key material in a message');
  });
});
