import assert from 'node:assert/strict';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import { EndpointCache } from './endpoint-cache.js';

/** A fake of our repository port that counts reads and answers after a tick. */
class CountingRepository implements EndpointRepository {
  reads = 0;
  stored: WebhookEndpoint | null = null;
  async findByAccount(accountId: string): Promise<WebhookEndpoint | null> {
    this.reads++;
    await new Promise((resolve) => setTimeout(resolve, 5));
    return this.stored?.accountId === accountId ? this.stored : null;
  }
  async findById(id: string): Promise<WebhookEndpoint | null> {
    this.reads++;
    return this.stored?.id === id ? this.stored : null;
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
});
