import assert from 'node:assert/strict';
import { mongoUsers } from '@stormhook/mongo';
import { checkMongoLogins, checkRenderedMongoUsers } from './mongo-access-check.js';

function deployment(component: string, secret: string, extraSecret?: string): string {
  const extra = extraSecret ? `\n            - name: OTHER\n              valueFrom: { secretKeyRef: { name: ${extraSecret}, key: mongo-url } }` : '';
  return `---
kind: Deployment
metadata: { labels: { app.kubernetes.io/component: ${component} } }
spec:
  template:
    spec:
      containers:
        - env:
            - name: MONGO_URL
              valueFrom: { secretKeyRef: { name: ${secret}, key: mongo-url } }${extra}
`;
}

const variable = (user: string) => `MONGO_URL_${user.toUpperCase().replace(/-/g, '_')}`;

function usersJob(lines: string[], secretOf: (user: string) => string = (user) => `mongo-${user}`): string {
  const env = mongoUsers()
    .map((u) => `            - name: ${variable(u.user)}\n              valueFrom: { secretKeyRef: { name: ${secretOf(u.user)}, key: mongo-url } }`)
    .join('\n');
  return `---
kind: Job
metadata: { labels: { app.kubernetes.io/component: mongo-users } }
spec:
  template:
    spec:
      containers:
        - env:
${env}
          args:
            - |
${lines.map((line) => `              ${line}`).join('\n')}
`;
}

const line = (user: string, db: string, roles: Array<{ role: string; db: string }>) =>
  `ensureUser(${JSON.stringify(user)}, ${JSON.stringify(db)}, ${JSON.stringify(roles)}, ${JSON.stringify(variable(user))});`;

const tableLines = () => mongoUsers().map((u) => line(u.user, u.db, u.roles));
const allDeployments = () => mongoUsers().map((u) => deployment(u.user, `mongo-${u.user}`));

describe('MongoDB access checks of a render', () => {
  it('passes every service connecting with its own Secret, and fails a borrowed, shared or extra one', () => {
    const ok = checkMongoLogins(allDeployments().join(''), 'x');
    assert.equal(ok.ok, true, ok.detail);
    assert.match(checkMongoLogins(deployment('ingest', 'mongo-identity'), 'x').detail, /ingest reads its MONGO_URL from Secret mongo-identity, not its own/);
    assert.match(
      checkMongoLogins(deployment('ingest', 'mongo-ingest') + deployment('identity', 'mongo-ingest'), 'x').detail,
      /share the database Secret mongo-ingest/,
    );
    assert.match(
      checkMongoLogins(deployment('ingest', 'mongo-ingest', 'mongo-identity') + deployment('identity', 'mongo-identity'), 'x').detail,
      /ingest also reads identity's database Secret as OTHER/,
    );
    assert.match(checkMongoLogins(deployment('publisher', 'mongo-publisher'), 'x').detail, /publisher reads MONGO_URL but has no user in the table/);
  });

  it('passes a users Job creating exactly the table, and names a missing user, a widened role and a password from the wrong Secret', () => {
    const render = usersJob(tableLines()) + allDeployments().join('');
    const ok = checkRenderedMongoUsers(render, 'x');
    assert.equal(ok.ok, true, ok.detail);
    assert.equal(ok.detail, `${mongoUsers().length} users`);

    const widened = tableLines().map((l) =>
      l.replace(
        '{"role":"readWrite","db":"stormhook_ingest"}]',
        '{"role":"readWrite","db":"stormhook_ingest"},{"role":"readWrite","db":"stormhook_identity"}]',
      ),
    );
    const detail = checkRenderedMongoUsers(usersJob(widened.slice(1)), 'x').detail;
    assert.match(detail, /missing gateway@stormhook_gateway readWrite@stormhook_gateway/);
    assert.match(detail, /not in the table: ingest@stormhook_ingest readWrite@stormhook_ingest readWrite@stormhook_identity/);

    const swapped = usersJob(tableLines(), (user) => (user === 'ingest' ? 'mongo-identity' : `mongo-${user}`)) + allDeployments().join('');
    assert.match(checkRenderedMongoUsers(swapped, 'x').detail, /ingest's password is set from Secret mongo-identity, but ingest connects with mongo-ingest/);
    assert.match(checkRenderedMongoUsers(allDeployments().join(''), 'x').detail, /no mongo-users Job rendered/);
  });

  it('compares under the render database prefix', () => {
    const prefixed = mongoUsers('second').map((u) => line(u.user, u.db, u.roles));
    assert.equal(checkRenderedMongoUsers(usersJob(prefixed), 'x', 'second').ok, true);
    assert.equal(checkRenderedMongoUsers(usersJob(prefixed), 'x').ok, false);
  });
});
