import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import { testInfra, uniqueName } from '@stormhook/testing';
import type { ObjectId } from 'mongodb';
import { connectMongo, type MongoHandle } from './connect.js';
import { isDuplicateKeyError } from './duplicate-key.js';
import { ensureDatabaseIndexes, ensureIndexes, IndexConflictError, type IndexSpec } from './indexes.js';
import { databaseName } from './names.js';
import { serverTraits } from './server-traits.js';

const mongoUrl = () => testInfra().mongoUrl;

interface Account {
  _id?: ObjectId;
  email: string;
  name?: string;
  logins?: number;
}

describe('mongo (real FerretDB/MongoDB)', () => {
  const dbName = databaseName('mongo', uniqueName('it'));
  const lines: Array<Record<string, unknown>> = [];
  let mongo: MongoHandle;

  before(async () => {
    const logger = createLogger({ service: 'mongo-int', destination: { write: (l: string) => lines.push(JSON.parse(l)) } });
    mongo = await connectMongo({ url: mongoUrl(), dbName, appName: 'mongo-int-spec', logger });
  });

  after(async () => {
    if (!mongo) return;
    await mongo.db.dropDatabase();
    const left = await mongo.client.db('admin').admin().listDatabases();
    await mongo.close();
    await mongo.close(); // idempotent
    assert.ok(!left.databases.some((d) => d.name === dbName), 'test database dropped');
  });

  it('connects with majority write concern and answers ping', async () => {
    assert.equal(mongo.db.databaseName, dbName);
    assert.equal(mongo.db.writeConcern?.w, 'majority');
    assert.equal(await mongo.ping(), true);
    assert.ok(lines.some((l) => l['msg'] === 'connected to MongoDB' && l['db'] === dbName));
  });

  it('writes and reads a document', async () => {
    const accounts = mongo.db.collection<Account>('rw');
    const { insertedId } = await accounts.insertOne({ email: 'a@example.com', name: 'Ada' });
    const found = await accounts.findOne({ _id: insertedId });
    assert.deepEqual(found, { _id: insertedId, email: 'a@example.com', name: 'Ada' });
  });

  it('finds, updates and deletes by _id through the _id index, not a scan', async () => {
    const docs = mongo.db.collection<{ _id: string; n: number }>('by_id');
    await docs.insertMany(Array.from({ length: 50 }, (_, n) => ({ _id: `doc-${n}`, n })));
    const explained = (await mongo.db.command({ explain: { find: 'by_id', filter: { _id: 'doc-7' }, limit: 1 } })) as {
      queryPlanner?: { Plan?: string[]; winningPlan?: unknown };
      ferretdbVersion?: string;
      serverInfo?: { ferretdbVersion?: string };
    };
    if (explained.serverInfo?.ferretdbVersion === undefined) {
      // MongoDB itself: the _id lookup is an index stage of its own.
      assert.match(JSON.stringify(explained.queryPlanner?.winningPlan), /IDHACK|EXPRESS_IXSCAN|IXSCAN/);
    } else {
      // FerretDB on SQLite: without the devstack's patch this plan is "SCAN <table>" (see ferretdb-patches.ts).
      const plan = (explained.queryPlanner?.Plan ?? []).join(' ');
      assert.match(plan, /SEARCH .* USING INDEX .*__id_/, `query plan: ${plan}`);
    }
    assert.equal((await docs.findOne({ _id: 'doc-7' }))?.n, 7);
    assert.equal((await docs.updateOne({ _id: 'doc-8' }, { $set: { n: 80 } })).modifiedCount, 1);
    assert.equal((await docs.findOne({ _id: 'doc-8' }))?.n, 80);
    assert.equal((await docs.deleteOne({ _id: 'doc-9' })).deletedCount, 1);
    assert.equal(await docs.countDocuments({}), 49);
  });

  it('ensureIndexes creates named indexes once; the second call is a no-op', async () => {
    const accounts = mongo.db.collection<Account>('idx');
    const specs: IndexSpec[] = [
      { name: 'email_unique', key: { email: 1 }, unique: true },
      { name: 'name_logins', key: { name: 1, logins: -1 } },
    ];
    assert.deepEqual(await ensureIndexes(accounts, specs), { created: ['email_unique', 'name_logins'], unchanged: [] });
    const before = await accounts.listIndexes().toArray();
    assert.deepEqual(await ensureIndexes(accounts, specs), { created: [], unchanged: ['email_unique', 'name_logins'] });
    assert.deepEqual(await accounts.listIndexes().toArray(), before);
    const unique = before.find((i) => i['name'] === 'email_unique');
    assert.equal(unique?.['unique'], true);
  });

  it('leaves out the non-unique indexes a server would not use, and says which: on FerretDB 1.x a filter on an indexed field still scans', async () => {
    const server = await serverTraits(mongo.db);
    const docs = mongo.db.collection<Account>('idx-traits');
    const specs: IndexSpec[] = [
      { name: 'email_unique', key: { email: 1 }, unique: true },
      { name: 'name_logins', key: { name: 1, logins: -1 } },
    ];
    const result = await ensureIndexes(docs, specs, { server });
    const names = (await docs.listIndexes().toArray()).map((i) => String(i['name']));
    assert.ok(names.includes('email_unique'), 'a unique index is always made: it enforces');
    if (server.queriesUseSecondaryIndexes) {
      assert.deepEqual(result, { created: ['email_unique', 'name_logins'], unchanged: [] });
      return;
    }
    assert.match(server.name, /^ferretdb v1\./);
    assert.deepEqual(result, { created: ['email_unique'], unchanged: [], skipped: ['name_logins'] });
    assert.ok(!names.includes('name_logins'));
    // The reason, measured: with an index on the field, FerretDB's plan for a filter on it is a scan.
    await ensureIndexes(docs, specs);
    await docs.insertMany(Array.from({ length: 20 }, (_, n) => ({ email: `u${n}@example.com`, name: `n${n % 4}`, logins: n })));
    const explained = (await mongo.db.command({ explain: { find: 'idx-traits', filter: { name: 'n1' } } })) as { queryPlanner?: { Plan?: string[] } };
    const plan = (explained.queryPlanner?.Plan ?? []).join(' ');
    assert.match(plan, /SCAN /, `query plan: ${plan}`);
    assert.doesNotMatch(plan, /USING INDEX/, `query plan: ${plan}`);
  });

  it("ensureDatabaseIndexes makes a whole database's plan with one look at the server, and names what it left out by collection", async () => {
    const logged: Array<Record<string, unknown>> = [];
    const logger = createLogger({ service: 'mongo-int', destination: { write: (l: string) => logged.push(JSON.parse(l)) } });
    const result = await ensureDatabaseIndexes(
      mongo.db,
      [
        ['plan-a', [{ name: 'a_unique', key: { a: 1 }, unique: true }]],
        ['plan-b', [{ name: 'b_time', key: { b: 1, at: -1 } }]],
        ['plan-c', []],
      ],
      { logger },
    );
    const names = async (c: string) => (await mongo.db.collection(c).listIndexes().toArray()).map((i) => String(i['name']));
    assert.ok((await names('plan-a')).includes('a_unique'));
    const said = logged.filter((line) => Array.isArray(line['skipped']));
    if (result.server.queriesUseSecondaryIndexes) {
      assert.deepEqual(result.skipped, []);
      assert.ok((await names('plan-b')).includes('b_time'));
      assert.equal(said.length, 0, 'nothing left out, nothing said');
    } else {
      assert.deepEqual(result.skipped, ['plan-b.b_time']);
      assert.deepEqual(
        said.map((line) => [line['server'], line['skipped']]),
        [[result.server.name, ['plan-b.b_time']]],
        'what was left out is said once, with the server',
      );
    }
  });

  it('ensureIndexes refuses to silently change an existing index', async () => {
    const accounts = mongo.db.collection<Account>('idx-conflict');
    await ensureIndexes(accounts, [{ name: 'email', key: { email: 1 } }]);
    await assert.rejects(ensureIndexes(accounts, [{ name: 'email', key: { email: 1 }, unique: true }]), IndexConflictError);
    await assert.rejects(ensureIndexes(accounts, [{ name: 'email_again', key: { email: 1 } }]), /has the key of existing index "email"/);
  });

  it('a unique index rejects a duplicate, by insert and by update, as isDuplicateKeyError', async () => {
    const accounts = mongo.db.collection<Account>('dup');
    await ensureIndexes(accounts, [{ name: 'email_unique', key: { email: 1 }, unique: true }]);
    await accounts.insertMany([{ email: 'a@example.com' }, { email: 'b@example.com' }]);

    const onInsert = await accounts.insertOne({ email: 'a@example.com' }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(onInsert, 'insert of a duplicate must fail');
    assert.equal(isDuplicateKeyError(onInsert), true);

    const onUpdate = await accounts.updateOne({ email: 'b@example.com' }, { $set: { email: 'a@example.com' } }).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(onUpdate, 'update to a duplicate must fail');
    assert.equal(isDuplicateKeyError(onUpdate), true);

    const other = await accounts.updateOne({ email: 'b@example.com' }, { $bogus: { x: 1 } } as never).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.ok(other);
    assert.equal(isDuplicateKeyError(other), false);
    assert.equal(await accounts.countDocuments({ email: 'a@example.com' }), 1);
  });

  it('findOneAndUpdate with upsert inserts, then updates the same document', async () => {
    const accounts = mongo.db.collection<Account>('upsert');
    await ensureIndexes(accounts, [{ name: 'email_unique', key: { email: 1 }, unique: true }]);
    const upsert = () =>
      accounts.findOneAndUpdate({ email: 'u@example.com' }, { $setOnInsert: { name: 'Una' }, $inc: { logins: 1 } }, { upsert: true, returnDocument: 'after' });
    const first = await upsert();
    const second = await upsert();
    assert.equal(first?.logins, 1);
    assert.equal(second?.logins, 2);
    assert.equal(second?.name, 'Una');
    assert.deepEqual(second?._id, first?._id);
    assert.equal(await accounts.countDocuments({}), 1);
  });

  it('fails fast when the database cannot be reached', async () => {
    const started = Date.now();
    await assert.rejects(
      connectMongo({ url: 'mongodb://127.0.0.1:1', dbName, appName: 'dead', serverSelectionTimeoutMS: 300 }),
      (error: Error) => error.name === 'MongoServerSelectionError',
    );
    assert.ok(Date.now() - started < 3_000, `took ${Date.now() - started} ms`);
  });
});
