import assert from 'node:assert/strict';
import { testInfra, uniqueName } from '@stormhook/testing';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { bulkWriteInChunks, MAX_STATEMENTS_PER_COMMAND } from './bulk-write.js';
import { databaseName } from './names.js';

describe('bulkWriteInChunks (real FerretDB/MongoDB)', () => {
  let client: MongoClient;
  const commands: CommandStartedEvent[] = [];
  const dbName = databaseName('mongo', uniqueName('bulk'));

  before(async () => {
    client = new MongoClient(testInfra().mongoUrl, { monitorCommands: true });
    client.on('commandStarted', (event) => commands.push(event));
    await client.connect();
  });

  after(async () => {
    await client.db(dbName).dropDatabase();
    await client.close();
  });

  it('applies every operation, in commands of at most the statement bound', async () => {
    const collection = client.db(dbName).collection<{ _id: string; n: number }>('docs');
    const operations = Array.from({ length: 2 * MAX_STATEMENTS_PER_COMMAND + 7 }, (_, n) => ({
      replaceOne: { filter: { _id: `d${n}` }, replacement: { _id: `d${n}`, n }, upsert: true },
    }));
    commands.length = 0;
    await bulkWriteInChunks(collection, operations);
    const updates = commands.filter((c) => c.commandName === 'update');
    assert.deepEqual(
      updates.map((c) => (c.command['updates'] as unknown[]).length),
      [MAX_STATEMENTS_PER_COMMAND, MAX_STATEMENTS_PER_COMMAND, 7],
    );
    assert.equal(await collection.countDocuments(), operations.length);
    assert.equal((await collection.findOne({ _id: 'd106' }))?.n, 106);
  });
});
