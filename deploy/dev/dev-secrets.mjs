#!/usr/bin/env node
// Prints the Secret `stormhook-dev` and the ConfigMap of internal public keys that values-dev.yaml
// names, for `tilt up` (k8s_yaml(local(...)))
// or by hand: node deploy/dev/dev-secrets.mjs | kubectl apply -f -
// The keys are generated once per checkout and kept in .stack/dev-secrets.json (ignored by git), so
// a Tiltfile reload does not invalidate every session. Development only: never use these keys elsewhere.
import { createPrivateKey, createPublicKey, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(root, '.stack', 'dev-secrets.json');
// The services that call others sign their internal tokens with a key each (the chart's edge file,
// rendered from packages/grpc/src/edges.ts).
const edges = JSON.parse(readFileSync(join(root, 'deploy', 'helm', 'stormhook', 'files', 'grpc-edges.json'), 'utf8')).services;
const callers = Object.keys(edges).filter((service) => edges[service].calls.length > 0);
const signingKeyKey = (service) => `${service}-internal-signing-key.pem`;
// Every Kafka principal of the access table (rendered from packages/kafka/src/topic-access.ts) and the super user.
const kafkaPrincipals = [...JSON.parse(readFileSync(join(root, 'deploy', 'helm', 'stormhook', 'files', 'kafka-acls.json'), 'utf8')).principals, 'admin'];
const kafkaKey = (principal) => `kafka-${principal}-password`;
// Every database user of the access table (rendered from packages/mongo/src/database-access.ts), in its own database.
const mongoUsers = JSON.parse(readFileSync(join(root, 'deploy', 'helm', 'stormhook', 'files', 'mongo-users.json'), 'utf8')).users;
const mongoKey = (user) => `mongo-${user}-password`;
const mongoUrl = (user, password) => `mongodb://${user.user}:${password}@mongodb:27017/stormhook_${user.database}?replicaSet=rs0`;

function generate() {
  const { privateKey } = generateKeyPairSync('ed25519');
  const signingKeys = Object.fromEntries(
    callers.map((service) => [signingKeyKey(service), generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()]),
  );
  return {
    'jwt-signing-key.pem': privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    'credential-encryption-key': randomBytes(32).toString('base64'),
    'notifier-message-key.pem': generateKeyPairSync('x25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    ...signingKeys,
    ...Object.fromEntries(kafkaPrincipals.map((principal) => [kafkaKey(principal), randomBytes(24).toString('hex')])),
    ...Object.fromEntries(mongoUsers.map((user) => [mongoKey(user.user), randomBytes(24).toString('hex')])),
  };
}

let data;
if (existsSync(file)) {
  // A checkout from before a key was added gets the new key, the old ones kept (sessions survive);
  // keys no longer generated (the retired shared internal key) are dropped.
  const fresh = generate();
  const kept = JSON.parse(readFileSync(file, 'utf8'));
  data = Object.fromEntries(Object.keys(fresh).map((key) => [key, kept[key] ?? fresh[key]]));
  if (JSON.stringify(data) !== JSON.stringify(kept)) writeFileSync(file, JSON.stringify(data, null, 2), { mode: 0o600 });
} else {
  data = generate();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(data, null, 2), { mode: 0o600 });
}

// Identity's copy of the notifier's public message key, always derived, so the two cannot disagree.
data['notifier-message-public-key.pem'] = createPublicKey(createPrivateKey(data['notifier-message-key.pem']))
  .export({ type: 'spki', format: 'pem' })
  .toString();

// JSON is YAML: no quoting rules to get wrong for PEM blocks.
const secret = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 'stormhook-dev', labels: { 'app.kubernetes.io/part-of': 'stormhook', 'stormhook.io/dev-only': 'true' } },
  type: 'Opaque',
  stringData: data,
};
// Public keys: a ConfigMap every gRPC service reads (INTERNAL_PUBLIC_KEYS), derived from the private keys.
const publicKeys = Object.fromEntries(
  callers.map((service) => [
    service,
    createPublicKey(createPrivateKey(data[signingKeyKey(service)]))
      .export({ type: 'spki', format: 'pem' })
      .toString(),
  ]),
);
const configMap = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'stormhook-dev-internal-public-keys', labels: secret.metadata.labels },
  data: { 'internal-public-keys.json': JSON.stringify(publicKeys) },
};
// One Secret per Kafka principal (values-dev.yaml: secrets.kafka.secretPrefix stormhook-dev-kafka-),
// so each pod references only its own; the admin's also carries its user name for the chart's jobs.
const kafkaSecrets = kafkaPrincipals.map((principal) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: `stormhook-dev-kafka-${principal}`, labels: secret.metadata.labels },
  type: 'Opaque',
  stringData: { ...(principal === 'admin' ? { username: 'admin' } : {}), password: data[kafkaKey(principal)] },
}));
// One Secret per database user (values-dev.yaml: secrets.database.secretPrefix stormhook-dev-mongo-), its
// URL naming its own database as the authentication database; the chart's users Job creates the users.
// The administrator's URL has no credentials: the development mongod runs without --auth.
const mongoSecrets = [
  ...mongoUsers.map((user) => ({ name: `stormhook-dev-mongo-${user.user}`, url: mongoUrl(user, data[mongoKey(user.user)]) })),
  { name: 'stormhook-dev-mongo-admin', url: 'mongodb://mongodb:27017/?replicaSet=rs0' },
].map(({ name, url }) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, labels: secret.metadata.labels },
  type: 'Opaque',
  stringData: { 'mongo-url': url },
}));
process.stdout.write([secret, configMap, ...kafkaSecrets, ...mongoSecrets].map((doc) => `${JSON.stringify(doc, null, 2)}\n`).join('---\n'));
