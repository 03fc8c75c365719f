import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient, MongoServerError } from 'mongodb';
import { serviceDatabase } from '@stormhook/mongo';
import { freePort } from '@stormhook/testing';
import { paths } from '../paths.js';
import { installFerretDb, startFerretDb } from './ferretdb.js';
import type { ManagedProcess } from './process.js';

/**
 * What the embedded database enforces when asked to authenticate (issue 23 item 2), measured on the
 * real binary rather than read from its source: FerretDB 1.24 with --test-enable-new-auth requires a
 * SCRAM login and checks the password, but grants no roles (createUser accepts only `roles: []`) and
 * lets any logged-in user write any database. So the local stack's per-service logins
 * (ferretdb-logins.ts) do not stop ingest writing identity's users; only a real MongoDB with the
 * chart's users does. When this spec fails because a write below is refused, the engine has started
 * enforcing roles: grant the table's roles (packages/mongo/src/database-access.ts) locally too.
 */
const HOST = '127.0.0.1';

describe('FerretDB 1.24 with authentication on (the embedded engine)', function () {
  this.timeout(120_000);
  const dataDir = `ferretdb-auth-${randomBytes(4).toString('hex')}`;
  const admin = { database: 'stormhook_admin', username: 'admin', password: randomBytes(16).toString('hex') };
  const ingestDb = serviceDatabase('ingest', 'authspec');
  const identityDb = serviceDatabase('identity', 'authspec');
  const ingestPassword = randomBytes(16).toString('hex');
  let ferret: ManagedProcess | undefined;
  let base = '';
  const clients: MongoClient[] = [];

  async function client(url: string): Promise<MongoClient> {
    const c = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    clients.push(c);
    await c.connect();
    return c;
  }

  async function refusal(action: () => Promise<unknown>): Promise<string> {
    try {
      await action();
    } catch (error) {
      if (error instanceof MongoServerError) return error.codeName ?? String(error.code);
      throw error;
    }
    return 'accepted';
  }

  before(async () => {
    const binary = await installFerretDb(() => undefined);
    const port = await freePort(HOST);
    base = `${HOST}:${port}`;
    ferret = await startFerretDb(binary, { host: HOST, port, log: () => undefined, dataDir, synchronous: 'normal', auth: admin });
    const root = await client(`mongodb://${admin.username}:${admin.password}@${base}/?authSource=${admin.database}`);
    await root.db(ingestDb).command({ createUser: 'ingest', pwd: ingestPassword, roles: [] });
  });

  after(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await ferret?.stop(5_000);
    rmSync(join(paths.data, dataDir), { recursive: true, force: true });
  });

  it('enforces authentication: no command without a login, no login with a wrong password', async () => {
    const anonymous = await client(`mongodb://${base}/`);
    assert.equal(await refusal(() => anonymous.db(identityDb).collection('users').insertOne({ role: 'ADMIN' })), 'Unauthorized');
    assert.equal(await refusal(() => client(`mongodb://ingest:wrong@${base}/?authSource=${ingestDb}`)), 'AuthenticationFailed');
  });

  it('cannot grant a role: createUser accepts only an empty role list', async () => {
    const root = clients[0]!;
    const granted = await refusal(() =>
      root.db(identityDb).command({ createUser: 'identity', pwd: 'x'.repeat(32), roles: [{ role: 'readWrite', db: identityDb }] }),
    );
    assert.equal(granted, 'NotImplemented');
  });

  it('does not enforce authorisation: the ingest user writes identity users and creates logins', async () => {
    const ingest = await client(`mongodb://ingest:${ingestPassword}@${base}/?authSource=${ingestDb}`);
    assert.equal(await refusal(() => ingest.db(ingestDb).collection('seen').insertOne({ own: true })), 'accepted');
    assert.equal(await refusal(() => ingest.db(identityDb).collection('users').insertOne({ email: 'x@example.com', role: 'ADMIN' })), 'accepted');
    assert.equal(await ingest.db(identityDb).collection('users').countDocuments({ role: 'ADMIN' }), 1);
    assert.equal(await refusal(() => ingest.db(identityDb).command({ createUser: 'intruder', pwd: 'y'.repeat(32), roles: [] })), 'accepted');
  });
});
