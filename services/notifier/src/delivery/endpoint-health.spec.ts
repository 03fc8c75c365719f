import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { Clock } from '../ports/clock.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { NotifierEventPublisher } from '../ports/event-publisher.js';
import { EndpointCache } from './endpoint-cache.js';
import { EndpointHealth } from './endpoint-health.js';

/** A fake of our repository port that records the failure-run writes. */
class RecordingRepository implements EndpointRepository {
  readonly failingSinceWrites: (Date | null)[] = [];
  disabled = 0;
  async findByAccount(): Promise<WebhookEndpoint | null> {
    return null;
  }
  async findById(): Promise<WebhookEndpoint | null> {
    return null;
  }
  async insert(): Promise<'inserted' | 'duplicate'> {
    return 'inserted';
  }
  async save(): Promise<void> {}
  async setFailingSince(_endpoint: unknown, failingSince: Date | null): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, 2));
    this.failingSinceWrites.push(failingSince);
  }
  async disable(): Promise<boolean> {
    this.disabled++;
    return true;
  }
}

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint =>
  ({ id: 'ep_1', accountId: 'acc', status: 'enabled', failingSince: null, ownerEmail: null, url: 'https://example.com/hook', ...over }) as WebhookEndpoint;

function setUp(now: () => Date = () => new Date()) {
  const repository = new RecordingRepository();
  const publisher: NotifierEventPublisher = { deliveryFailed: async () => undefined, messageRequested: async () => undefined };
  const clock: Clock = { now };
  const health = new EndpointHealth({
    repository,
    cache: new EndpointCache(repository),
    publisher,
    clock,
    logger: createLogger({ service: 'test', level: 'silent' }),
    autoDisableAfterMs: 60_000,
  });
  return { repository, health };
}

describe('EndpointHealth', () => {
  it('writes the start of a failure run once, however many attempts in flight carry the copy from before it', async () => {
    const { repository, health } = setUp();
    const stale = endpoint();
    await Promise.all(Array.from({ length: 32 }, () => health.onFailure(stale, false)));
    await health.onFailure(stale, false);
    assert.equal(repository.failingSinceWrites.length, 1);
    assert.ok(repository.failingSinceWrites[0] instanceof Date);
  });

  it('writes the end of the run once on the first success, also from copies that still say failing', async () => {
    const { repository, health } = setUp();
    const failing = endpoint({ failingSince: new Date(Date.now() - 1_000) });
    await Promise.all(Array.from({ length: 8 }, () => health.onSuccess(failing)));
    assert.equal(repository.failingSinceWrites.length, 1);
    assert.equal(repository.failingSinceWrites[0], null);
    await health.onFailure(failing, false);
    assert.equal(repository.failingSinceWrites.length, 2, 'a failure after the success starts a new run');
    assert.ok(repository.failingSinceWrites[1] instanceof Date);
  });

  it('disables an endpoint failing for longer than the limit, judged by the run start it knows', async () => {
    let now = new Date('2026-01-01T00:00:00Z');
    const { repository, health } = setUp(() => now);
    await health.onFailure(endpoint(), false);
    now = new Date(now.getTime() + 61_000);
    await health.onFailure(endpoint({ failingSince: new Date('2026-01-01T00:00:00Z') }), false);
    assert.equal(repository.disabled, 1);
  });

  it('does not write anything for successes of an endpoint that is not failing', async () => {
    const { repository, health } = setUp();
    await Promise.all(Array.from({ length: 10 }, () => health.onSuccess(endpoint())));
    assert.equal(repository.failingSinceWrites.length, 0);
  });
});
