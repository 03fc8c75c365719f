import assert from 'node:assert/strict';
import { localInternalKeys, principalPublicKeys, principalSigningKey } from '@stormhook/grpc';
import { allServices, serviceEnv } from './services.js';

describe('service environment of the local stack', () => {
  const internalKeys = localInternalKeys({});
  const input = { host: '127.0.0.1', gatewayPort: 8080, grpcBasePort: 50051, kafkaBrokers: ['127.0.0.1:9092'], mongoUrl: 'mongodb://127.0.0.1/', internalKeys };

  it('gives the principal signing key to the gateway alone and its public key to every other service', () => {
    for (const service of allServices) {
      const env = serviceEnv(service, input);
      assert.equal(env['INTERNAL_TOKEN_KEY'], internalKeys.INTERNAL_TOKEN_KEY, service);
      if (service === 'gateway') {
        assert.equal(env['INTERNAL_PRINCIPAL_PUBLIC_KEY'], undefined);
        assert.equal(principalSigningKey(env['INTERNAL_PRINCIPAL_SIGNING_KEY']!).asymmetricKeyType, 'ed25519');
      } else {
        assert.equal(env['INTERNAL_PRINCIPAL_SIGNING_KEY'], undefined, `${service} must not hold the signing key`);
        assert.equal(principalPublicKeys(env['INTERNAL_PRINCIPAL_PUBLIC_KEY']!).length, 1);
      }
    }
  });

  it('tells each service the addresses of its callees only, as the chart does', () => {
    const addresses = (service: (typeof allServices)[number]) =>
      Object.entries(serviceEnv(service, input))
        .filter(([name]) => name.endsWith('_GRPC_ADDRESS'))
        .map(([name, value]) => `${name}=${value}`)
        .sort();
    assert.deepEqual(addresses('alarm-matcher'), ['GEO_GRPC_ADDRESS=127.0.0.1:50052', 'NOTIFIER_GRPC_ADDRESS=127.0.0.1:50056']);
    assert.deepEqual(addresses('identity'), ['GEO_GRPC_ADDRESS=127.0.0.1:50052']);
    assert.deepEqual(addresses('notifier'), []);
    assert.equal(addresses('gateway').length, 6);
  });

  it("takes the caller's signing key and derives the public key from it", () => {
    const again = localInternalKeys({ INTERNAL_PRINCIPAL_SIGNING_KEY: internalKeys.INTERNAL_PRINCIPAL_SIGNING_KEY, INTERNAL_TOKEN_KEY: 'x'.repeat(32) });
    assert.equal(again.INTERNAL_PRINCIPAL_PUBLIC_KEY, internalKeys.INTERNAL_PRINCIPAL_PUBLIC_KEY);
    assert.equal(again.INTERNAL_TOKEN_KEY, 'x'.repeat(32));
    assert.notEqual(localInternalKeys({}).INTERNAL_PRINCIPAL_SIGNING_KEY, internalKeys.INTERNAL_PRINCIPAL_SIGNING_KEY, 'fresh keys per run');
  });
});
