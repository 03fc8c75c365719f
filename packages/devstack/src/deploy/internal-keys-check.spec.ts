import assert from 'node:assert/strict';
import { checkPrincipalKeys } from './internal-keys-check.js';

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
          env:
${env.map((name) => `            - name: ${name}`).join('\n')}
`;

describe('internal principal key check', () => {
  const gateway = deployment('gateway', ['INTERNAL_TOKEN_KEY', 'INTERNAL_PRINCIPAL_SIGNING_KEY']);

  it('passes the gateway with the signing key and a service with the public key', () => {
    const result = checkPrincipalKeys([gateway, deployment('notifier', ['INTERNAL_TOKEN_KEY', 'INTERNAL_PRINCIPAL_PUBLIC_KEY'])].join('---\n'), 't');
    assert.deepEqual([result.ok, result.detail], [true, '2 Deployments']);
  });

  it('fails a service that gets the signing key, or lacks the public key', () => {
    const leaked = checkPrincipalKeys([gateway, deployment('ingest', ['INTERNAL_PRINCIPAL_SIGNING_KEY', 'INTERNAL_PRINCIPAL_PUBLIC_KEY'])].join('---\n'), 't');
    assert.deepEqual([leaked.ok, leaked.detail], [false, 'ingest gets INTERNAL_PRINCIPAL_SIGNING_KEY']);
    const missing = checkPrincipalKeys([gateway, deployment('geo', ['INTERNAL_TOKEN_KEY'])].join('---\n'), 't');
    assert.deepEqual([missing.ok, missing.detail], [false, 'geo lacks INTERNAL_PRINCIPAL_PUBLIC_KEY']);
  });
});
