import assert from 'node:assert/strict';
import { checkInternalKeys } from './internal-keys-check.js';

const secretRef = (key: string) => `
              valueFrom:
                secretKeyRef:
                  name: stormhook-internal-keys
                  key: ${key}`;
const publicKeys = `
            - name: INTERNAL_PUBLIC_KEYS
              valueFrom:
                configMapKeyRef:
                  name: stormhook-internal-public-keys
                  key: internal-public-keys.json`;
const signing = (variable: string, key: string) => `
            - name: ${variable}${secretRef(key)}`;
const deployment = (service: string, env: string[]) => `
kind: Deployment
metadata:
  labels:
    app.kubernetes.io/component: ${service}
spec:
  template:
    spec:
      containers:
        - name: ${service}
          env:${env.join('')}
`;
const check = (...docs: string[]) => {
  const result = checkInternalKeys(docs.join('---\n'), 't');
  return [result.ok, result.detail];
};

describe('internal key check', () => {
  const gateway = deployment('gateway', [signing('GATEWAY_INTERNAL_SIGNING_KEY', 'gateway-internal-signing-key.pem')]);
  const matcher = deployment('alarm-matcher', [signing('ALARM_MATCHER_INTERNAL_SIGNING_KEY', 'alarm-matcher-internal-signing-key.pem'), publicKeys]);

  it('passes each caller with its own signing key and every gRPC service with the public keys', () => {
    assert.deepEqual(check(gateway, matcher, deployment('notifier', [publicKeys])), [true, '3 Deployments']);
  });

  it("fails a service that gets another service's key, under its variable or under its own", () => {
    const posing = deployment('query', [
      signing('QUERY_INTERNAL_SIGNING_KEY', 'query-internal-signing-key.pem'),
      signing('GATEWAY_INTERNAL_SIGNING_KEY', 'gateway-internal-signing-key.pem'),
      publicKeys,
    ]);
    assert.deepEqual(check(gateway, posing), [false, 'query gets GATEWAY_INTERNAL_SIGNING_KEY']);
    const swapped = deployment('query', [signing('QUERY_INTERNAL_SIGNING_KEY', 'gateway-internal-signing-key.pem'), publicKeys]);
    assert.deepEqual(check(gateway, swapped), [
      false,
      'query reads QUERY_INTERNAL_SIGNING_KEY from Secret key gateway-internal-signing-key.pem, not query-internal-signing-key.pem',
    ]);
  });

  it('fails a service that calls none but gets a signing key, a caller without its key, and a verifier without the public keys', () => {
    assert.deepEqual(check(gateway, deployment('ingest', [signing('INGEST_INTERNAL_SIGNING_KEY', 'ingest-internal-signing-key.pem'), publicKeys])), [
      false,
      'ingest calls no service but gets INGEST_INTERNAL_SIGNING_KEY',
    ]);
    assert.deepEqual(check(deployment('gateway', []), deployment('identity', [publicKeys])), [
      false,
      'gateway lacks GATEWAY_INTERNAL_SIGNING_KEY; identity lacks IDENTITY_INTERNAL_SIGNING_KEY',
    ]);
    assert.deepEqual(check(gateway, deployment('geo', [])), [false, 'geo lacks INTERNAL_PUBLIC_KEYS from the public-key ConfigMap']);
  });
});
