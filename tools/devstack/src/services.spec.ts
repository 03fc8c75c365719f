import { generateCredentialSet } from './infra/kafka-credentials.js';
import assert from 'node:assert/strict';
import { callersOf, GRPC_SERVICES, localInternalKeys, parsePublicKeys, serviceSigningKey, signingKeyVariable } from '@stormhook/grpc';
import { allServices, serviceEnv } from './services.js';

describe('service environment of the local stack', () => {
  const internalKeys = localInternalKeys({});
  const input = {
    host: '127.0.0.1',
    gatewayPort: 8080,
    grpcBasePort: 50051,
    kafkaBrokers: ['127.0.0.1:9092'],
    kafkaCredentials: generateCredentialSet(),
    mongoUrls: Object.fromEntries(allServices.map((s) => [s, `mongodb://${s}:pw@127.0.0.1/?authSource=stormhook_${s.replace(/-/g, '_')}`])) as Record<
      (typeof allServices)[number],
      string
    >,
    internalKeys,
  };
  const signingKeysIn = (env: Record<string, string>) => Object.keys(env).filter((name) => name.endsWith('_INTERNAL_SIGNING_KEY'));

  it('gives each calling service its own signing key and no other, and every service the public keys', () => {
    const callers = ['gateway', 'identity', 'query', 'alarm-matcher'];
    for (const service of allServices) {
      const env = serviceEnv(service, input);
      if (callers.includes(service)) {
        assert.deepEqual(signingKeysIn(env), [signingKeyVariable(service)], service);
        assert.equal(env[signingKeyVariable(service)], internalKeys[signingKeyVariable(service)], service);
        assert.equal(serviceSigningKey(env[signingKeyVariable(service)]!).asymmetricKeyType, 'ed25519');
      } else {
        assert.deepEqual(signingKeysIn(env), [], `${service} calls no one and holds no signing key`);
      }
      assert.equal(env['INTERNAL_PUBLIC_KEYS'], internalKeys.INTERNAL_PUBLIC_KEYS, service);
    }
    // Every gRPC service finds each of its callers' keys in the map.
    const publicKeys = parsePublicKeys(internalKeys.INTERNAL_PUBLIC_KEYS);
    for (const service of GRPC_SERVICES) for (const caller of callersOf(service)) assert.equal(publicKeys[caller]?.length, 1, `${caller} -> ${service}`);
  });

  it('gives each service its own database login and no other', () => {
    for (const service of allServices) {
      const url = serviceEnv(service, input)['MONGO_URL'] ?? '';
      assert.equal(url, input.mongoUrls[service], service);
      assert.match(url, new RegExp(`^mongodb://${service}:`), service);
    }
  });

  it('tells each service the addresses of its callees only, as the chart does', () => {
    const addresses = (service: (typeof allServices)[number]) =>
      Object.entries(serviceEnv(service, input))
        .filter(([name]) => name.endsWith('_GRPC_ADDRESS'))
        .map(([name, value]) => `${name}=${value}`)
        .sort();
    assert.deepEqual(addresses('alarm-matcher'), [
      'GEO_GRPC_ADDRESS=127.0.0.1:50052',
      'IDENTITY_GRPC_ADDRESS=127.0.0.1:50051',
      'NOTIFIER_GRPC_ADDRESS=127.0.0.1:50056',
      'QUERY_GRPC_ADDRESS=127.0.0.1:50054',
    ]);
    assert.deepEqual(addresses('identity'), ['GEO_GRPC_ADDRESS=127.0.0.1:50052']);
    assert.deepEqual(addresses('notifier'), []);
    assert.equal(addresses('gateway').length, 6);
  });

  it("takes the callers' signing keys from the environment and derives the public keys from them", () => {
    const gatewayKey = internalKeys[signingKeyVariable('gateway')]!;
    const again = localInternalKeys({ GATEWAY_INTERNAL_SIGNING_KEY: gatewayKey });
    assert.equal(again[signingKeyVariable('gateway')], gatewayKey);
    const before = JSON.parse(internalKeys.INTERNAL_PUBLIC_KEYS) as Record<string, string>;
    const after = JSON.parse(again.INTERNAL_PUBLIC_KEYS) as Record<string, string>;
    assert.equal(after['gateway'], before['gateway']);
    assert.notEqual(after['query'], before['query'], 'fresh keys for the services the environment names none of');
    assert.deepEqual(Object.keys(after).sort(), ['alarm-matcher', 'gateway', 'identity', 'query']);
  });
});
