import assert from 'node:assert/strict';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { testInfra } from '@stormhook/testing';
import { endpointConfig, startHarness, type NotifierHarness } from '../test-support/harness.js';
import { COLLECTIONS } from './collections.js';
import { MongoEndpointRepository } from './mongo-endpoint-repository.js';

/** The filter of every `find` sent, by collection. */
function finds(commands: readonly CommandStartedEvent[]): Array<{ collection: string; filter: Record<string, unknown> }> {
  return commands
    .filter((c) => c.commandName === 'find')
    .map((c) => ({ collection: String(c.command['find']), filter: c.command['filter'] as Record<string, unknown> }));
}

describe("MongoEndpointRepository (FerretDB): an account's endpoint by _id lookups", function () {
  this.timeout(60_000);
  let h: NotifierHarness;
  let client: MongoClient;
  let repo: MongoEndpointRepository;
  const commands: CommandStartedEvent[] = [];

  before(async () => {
    h = await startHarness();
    client = new MongoClient(testInfra().mongoUrl, { monitorCommands: true, appName: 'endpoint-repo-it' });
    client.on('commandStarted', (event) => commands.push(event));
    await client.connect();
    repo = new MongoEndpointRepository(client.db(h.mongo.db.databaseName), h.cipher);
  });
  after(async () => {
    await client?.close();
    await h?.close();
  });

  const create = async (accountId: string): Promise<string> => {
    const created = await h.endpoints.create(accountId, endpointConfig('http://127.0.0.1:9/hook'));
    assert.ok(created.ok, JSON.stringify(created));
    return created.value.endpoint.id;
  };

  it("finds an account's endpoint, and answers null for an account without one, filtering on _id only", async () => {
    // FerretDB 1.x on SQLite scans the collection for any other filter (a second per lookup at storm load).
    const ids = [await create('acc-repo-1'), await create('acc-repo-2')];
    commands.length = 0;
    assert.equal((await repo.findByAccount('acc-repo-2'))?.id, ids[1]);
    assert.equal((await repo.findByAccount('acc-repo-1'))?.id, ids[0]);
    assert.equal(await repo.findByAccount('acc-repo-none'), null);
    const sent = finds(commands);
    assert.ok(sent.length >= 5, `expected the lookups to be seen, got ${JSON.stringify(sent)}`);
    for (const { filter } of sent) assert.deepEqual(Object.keys(filter), ['_id'], `a find filtered on ${JSON.stringify(filter)}`);
  });

  it('points endpoints stored without a pointer (before pointers existed, or a crash between the inserts) at the next start', async () => {
    const id = await create('acc-repo-legacy');
    await h.mongo.db.collection(COLLECTIONS.endpointAccounts).deleteOne({ _id: 'acc-repo-legacy' as never });
    assert.equal(await repo.findByAccount('acc-repo-legacy'), null, 'without its pointer the endpoint is not found: the backfill below is what finds it');
    assert.equal(await repo.backfillAccountPointers(), 1);
    assert.equal((await repo.findByAccount('acc-repo-legacy'))?.id, id);
    assert.equal(await repo.backfillAccountPointers(), 0, 'a steady start writes nothing');
  });

  it('repairs the pointer when the create of an account whose endpoint lost it is retried', async () => {
    const id = await create('acc-repo-retry');
    await h.mongo.db.collection(COLLECTIONS.endpointAccounts).deleteOne({ _id: 'acc-repo-retry' as never });
    const again = await h.endpoints.create('acc-repo-retry', endpointConfig('http://127.0.0.1:9/other'));
    assert.equal(again.ok, false, 'one endpoint per account');
    assert.equal((await repo.findByAccount('acc-repo-retry'))?.id, id);
  });
});
