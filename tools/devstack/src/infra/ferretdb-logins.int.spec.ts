import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { MongoClient, MongoServerError } from 'mongodb';
import { DATABASE_USERS, serviceDatabase } from '@stormhook/mongo';
import { freePort } from '@stormhook/testing';
import { paths } from '../paths.js';
import { ferretDataDir, installFerretDb, startFerretDb } from './ferretdb.js';
import { adminPassword, adminUrl, FERRET_ADMIN, FERRET_ADMIN_DATABASE, provisionServiceLogins, type FerretLogins } from './ferretdb-logins.js';
import type { ManagedProcess } from './process.js';

/**
 * The local stack's database logins on the real engine: every service of the access table gets its
 * own user and a password new to each run, the administrator's password lives as long as the data,
 * and a login works only with its own password. (What a login may then do is not enforced by the
 * engine: ferretdb-auth.int.spec.ts.)
 */
const HOST = '127.0.0.1';

describe('the embedded database logins of a run', function () {
  this.timeout(120_000);
  const dataDir = `ferretdb-logins-${randomBytes(4).toString('hex')}`;
  let binary = '';
  let port = 0;
  let ferret: ManagedProcess | undefined;
  let password = '';

  async function start(): Promise<void> {
    password = adminPassword(ferretDataDir(dataDir));
    const auth = { database: FERRET_ADMIN_DATABASE, username: FERRET_ADMIN, password };
    ferret = await startFerretDb(binary, { host: HOST, port, log: () => undefined, dataDir, synchronous: 'normal', auth });
  }

  /** The server's answer to a write over `url`: 'ok' or the error's code name. */
  async function writeOver(url: string, database: string): Promise<string> {
    const client = new MongoClient(url, { serverSelectionTimeoutMS: 5_000 });
    try {
      await client.connect();
      await client.db(database).collection('probe').insertOne({ at: Date.now() });
      return 'ok';
    } catch (error) {
      if (error instanceof MongoServerError) return error.codeName ?? String(error.code);
      throw error;
    } finally {
      await client.close();
    }
  }

  const withPassword = (url: string, other: string) => url.replace(/:[0-9a-f]+@/, `:${other}@`);
  const passwordOf = (url: string) => /:([0-9a-f]+)@/.exec(url)?.[1] ?? '';

  before(async () => {
    binary = await installFerretDb(() => undefined);
    port = await freePort(HOST);
    await start();
  });

  after(async () => {
    await ferret?.stop(5_000);
    rmSync(join(paths.data, dataDir), { recursive: true, force: true });
  });

  it('gives every service of the table a login of its own that works with its own password only', async () => {
    const logins = await provisionServiceLogins(HOST, port, password);
    assert.deepEqual(Object.keys(logins.serviceUrls).sort(), [...DATABASE_USERS].sort());
    for (const service of DATABASE_USERS) {
      const url = logins.serviceUrls[service];
      assert.match(url, new RegExp(`^mongodb://${service}:[0-9a-f]{48}@${HOST}:${port}/\\?authSource=${serviceDatabase(service)}$`));
      assert.equal(await writeOver(url, serviceDatabase(service, 'loginspec')), 'ok', service);
    }
    // ingest's user with identity's password is no one.
    const borrowed = withPassword(logins.serviceUrls.ingest, passwordOf(logins.serviceUrls.identity));
    assert.equal(await writeOver(borrowed, serviceDatabase('ingest', 'loginspec')), 'AuthenticationFailed');
    assert.equal(await writeOver(`mongodb://${HOST}:${port}/`, serviceDatabase('ingest', 'loginspec')), 'Unauthorized');
  });

  it("gives each run new service passwords (the last run's stop working) and keeps the administrator's with the data", async () => {
    const first: FerretLogins = await provisionServiceLogins(HOST, port, password);
    const second = await provisionServiceLogins(HOST, port, password);
    assert.notEqual(passwordOf(second.serviceUrls.notifier), passwordOf(first.serviceUrls.notifier));
    assert.equal(await writeOver(first.serviceUrls.notifier, serviceDatabase('notifier', 'loginspec')), 'AuthenticationFailed');
    assert.equal(await writeOver(second.serviceUrls.notifier, serviceDatabase('notifier', 'loginspec')), 'ok');

    const before = password;
    await ferret?.stop(5_000);
    await start();
    assert.equal(password, before);
    assert.equal(await writeOver(adminUrl(HOST, port, password), serviceDatabase('notifier', 'loginspec')), 'ok');
  });
});
