import assert from 'node:assert/strict';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import { EndpointCache } from './endpoint-cache.js';

/** A fake of our repository port that counts reads and answers after a tick. */
class CountingRepository implements EndpointRepository {
  reads = 0;
  byAccountReads = 0;
  stored: WebhookEndpoint | null = null;
  /** How long findById takes (a read on its way while a change is heard of). */
  byIdDelayMs = 0;
  async findByAccount(accountId: string): Promise<WebhookEndpoint | null> {
    this.reads++;
    this.byAccountReads++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return this.stored?.accountId === accountId ? this.stored : null;
  }
  async findById(id: string): Promise<WebhookEndpoint | null> {
    this.reads++;
    const seen = this.stored;
    if (this.byIdDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.byIdDelayMs));
    return seen?.id === id ? seen : null;
  }
  async insert(): Promise<'inserted' | 'duplicate'> {
    return 'inserted';
  }
  async save(): Promise<void> {}
  async setFailingSince(): Promise<void> {}
  async disable(): Promise<boolean> {
    return true;
  }
}

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({ id: 'ep_1', accountId: 'acc', status: 'enabled', ...over }) as WebhookEndpoint;

describe('EndpointCache: endpoints from memory', () => {
  it('shares one read among concurrent misses and answers later calls from memory', async () => {
    const repo = new CountingRepository();
    repo.stored = endpoint();
    const cache = new EndpointCache(repo, 60_000);
    const found = await Promise.all(Array.from({ length: 50 }, () => cache.byAccount('acc')));
    assert.ok(found.every((e) => e?.id === 'ep_1'));
    assert.equal(await cache.get('ep_1').then((e) => e?.accountId), 'acc');
    assert.equal(repo.reads, 1);
  });

  it('remembers that an account has no endpoint', async () => {
    const repo = new CountingRepository();
    const cache = new EndpointCache(repo, 60_000);
    for (let i = 0; i < 20; i++) assert.equal(await cache.byAccount('nobody'), null);
    assert.equal(repo.reads, 1);
  });

  it('sees its own writes at once and serves a stale copy while one read refreshes it', async () => {
    const repo = new CountingRepository();
    repo.stored = endpoint();
    const cache = new EndpointCache(repo, 20);
    await cache.byAccount('acc');
    cache.put(endpoint({ status: 'disabled' }));
    assert.equal((await cache.byAccount('acc'))?.status, 'disabled', 'own write');
    await new Promise((resolve) => setTimeout(resolve, 30));
    repo.stored = endpoint({ status: 'enabled' });
    assert.equal((await cache.byAccount('acc'))?.status, 'disabled', 'stale copy served at once');
    await new Promise((resolve) => setTimeout(resolve, 15));
    assert.equal((await cache.byAccount('acc'))?.status, 'enabled', 'refreshed in the background');
  });

  it("refreshes an account's known endpoint by its id alone: an account's endpoint never changes", async () => {
    const repo = new CountingRepository();
    repo.stored = endpoint();
    const cache = new EndpointCache(repo, 20);
    await cache.byAccount('acc');
    await new Promise((resolve) => setTimeout(resolve, 30));
    repo.stored = endpoint({ status: 'disabled' });
    await cache.byAccount('acc'); // stale: served, refreshed behind
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await cache.byAccount('acc'))?.status, 'disabled');
    assert.equal(repo.byAccountReads, 1, 'the pointer was read once, at the first miss');
    assert.equal(repo.reads, 2);
  });

  it('reads a changed endpoint again at its next use, long before its refresh time', async () => {
    const repo = new CountingRepository();
    repo.stored = endpoint();
    const cache = new EndpointCache(repo, 60_000);
    await cache.byAccount('acc');
    repo.stored = endpoint({ url: 'https://new.example/hook' });
    assert.equal((await cache.byAccount('acc'))?.url, undefined, 'not changed yet: served from memory');
    cache.changed('ep_1', 'acc');
    await cache.byAccount('acc'); // the old copy serves while the read is on its way
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await cache.byAccount('acc'))?.url, 'https://new.example/hook');
    assert.equal(repo.reads, 2);
  });

  it('hears of an endpoint created elsewhere for an account remembered without one', async () => {
    const repo = new CountingRepository();
    const cache = new EndpointCache(repo, 60_000);
    assert.equal(await cache.byAccount('acc'), null);
    repo.stored = endpoint();
    cache.changed('ep_1', 'acc');
    await cache.byAccount('acc');
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal((await cache.byAccount('acc'))?.id, 'ep_1');
  });

  it('does not take a read that was on its way when a change was heard of for fresh', async () => {
    const repo = new CountingRepository();
    repo.stored = endpoint();
    const cache = new EndpointCache(repo, 60_000);
    await cache.get('ep_1');
    cache.changed('ep_1', 'acc');
    repo.byIdDelayMs = 20;
    const before = cache.get('ep_1'); // stale copy served; a read starts and sees the old endpoint
    repo.stored = endpoint({ status: 'disabled' });
    cache.changed('ep_1', 'acc'); // the change lands while that read is on its way
    await before;
    await new Promise((resolve) => setTimeout(resolve, 30));
    repo.byIdDelayMs = 0;
    await cache.get('ep_1'); // the first read's result is stale at once: read again
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await cache.get('ep_1'))?.status, 'disabled');
  });

  it('expireAll makes every copy be read again', async () => {
    const repo = new CountingRepository();
    repo.stored = endpoint();
    const cache = new EndpointCache(repo, 60_000);
    await cache.get('ep_1');
    repo.stored = endpoint({ status: 'disabled' });
    cache.expireAll();
    await cache.get('ep_1');
    await new Promise((resolve) => setTimeout(resolve, 5));
    assert.equal((await cache.get('ep_1'))?.status, 'disabled');
  });
});
