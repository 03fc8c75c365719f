#!/usr/bin/env node
// Prints the Secret `stormhook-dev` that values-dev.yaml names, for `tilt up` (k8s_yaml(local(...)))
// or by hand: node deploy/dev/dev-secrets.mjs | kubectl apply -f -
// The keys are generated once per checkout and kept in .stack/dev-secrets.json (ignored by git), so
// a Tiltfile reload does not invalidate every session. Development only: never use these keys elsewhere.
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, '.stack', 'dev-secrets.json');

function generate() {
  const { privateKey } = generateKeyPairSync('ed25519');
  // The gateway's pair for internal tokens that carry a customer (the chart gives the public half to the others).
  const principal = generateKeyPairSync('ed25519');
  return {
    'mongo-url': 'mongodb://mongodb:27017/?replicaSet=rs0',
    'jwt-signing-key.pem': privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    'credential-encryption-key': randomBytes(32).toString('base64'),
    'internal-token-key': randomBytes(32).toString('base64url'),
    'internal-principal-signing-key.pem': principal.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    'internal-principal-public-key.pem': principal.publicKey.export({ type: 'spki', format: 'pem' }).toString(),
  };
}

let data;
if (existsSync(file)) {
  // A checkout from before a key was added gets the new key, the old ones kept (sessions survive).
  const kept = JSON.parse(readFileSync(file, 'utf8'));
  data = { ...generate(), ...kept };
  if (Object.keys(data).length !== Object.keys(kept).length) writeFileSync(file, JSON.stringify(data, null, 2), { mode: 0o600 });
} else {
  data = generate();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(data, null, 2), { mode: 0o600 });
}

// JSON is YAML: no quoting rules to get wrong for PEM blocks.
const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'stormhook-dev', labels: { 'app.kubernetes.io/part-of': 'stormhook', 'stormhook.io/dev-only': 'true' } },
  type: 'Opaque',
  stringData: data,
};
process.stdout.write(`${JSON.stringify(secret, null, 2)}\n`);
