import assert from 'node:assert/strict';
import { NO_AUTHENTICATION } from '../domain/authentication.js';
import { DEFAULT_DELIVERY_POLICY } from '../domain/delivery-policy.js';
import type { Delivery } from '../domain/delivery.js';
import { newWebhookEndpoint, type WebhookEndpoint } from '../domain/endpoint.js';
import type { DeliveryIntake } from '../ports/delivery-intake.js';
import { OUTBOX_DUE_AT, type DeliveryStore, type QueueEntry } from '../ports/delivery-store.js';
import { alarmEvent } from '../test-support/harness.js';
import { AcceptAlarm } from './accept-alarm.js';

const NOW = new Date('2026-11-26T02:00:00Z');
const HOLD_LEASE_MS = 60_000;

const endpoint = (over: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  ...newWebhookEndpoint(
    {
      url: 'https://example.com/hook',
      httpMethod: 'POST',
      contentType: 'application/json',
      authentication: NO_AUTHENTICATION,
      requestHeaders: {},
      deliveryPolicy: DEFAULT_DELIVERY_POLICY,
    },
    { id: 'ep_1', accountId: 'acc-1', signingSecret: 'whsec_x', now: NOW },
  ),
  ...over,
});

/** Acceptance over an in-memory store, with the offers its intake got. */
function accepting(found: WebhookEndpoint | null, offer: DeliveryIntake['offer'] = async () => undefined) {
  const deliveries = new Map<string, Delivery>();
  const queued: QueueEntry[] = [];
  const offers: Array<{ delivery: Delivery; endpoint: WebhookEndpoint }> = [];
  const store: Pick<DeliveryStore, 'insert' | 'enqueue' | 'get'> = {
    insert: async (d) => {
      if (deliveries.has(d.id)) return 'duplicate';
      deliveries.set(d.id, d);
      return 'inserted';
    },
    enqueue: async (entry) => {
      queued.push(entry);
      return 'inserted';
    },
    get: async (id) => deliveries.get(id) ?? null,
  };
  const intake: DeliveryIntake = {
    offer: async (delivery, to) => {
      offers.push({ delivery, endpoint: to });
      await offer(delivery, to);
    },
  };
  const accept = new AcceptAlarm({
    store: store as DeliveryStore,
    endpoints: { byAccount: async () => found },
    clock: { now: () => NOW },
    intake,
    holdLeaseMs: HOLD_LEASE_MS,
  });
  return { accept, deliveries, queued, offers };
}

describe('AcceptAlarm: store, then offer to the worker', () => {
  it('stores a fresh delivery and offers it, as stored, to the intake with its endpoint; queueing is not its business', async () => {
    const live = endpoint();
    const { accept, deliveries, queued, offers } = accepting(live);
    const event = alarmEvent('acc-1');
    assert.equal(await accept.execute(event), 'accepted');
    assert.equal(offers.length, 1);
    assert.equal(offers[0]?.delivery, deliveries.get(event.notificationId));
    assert.equal(offers[0]?.endpoint, live);
    assert.equal(offers[0]?.delivery.status, 'pending');
    assert.equal(offers[0]?.delivery.createdAt.getTime(), NOW.getTime());
    assert.deepEqual(queued, []);
  });

  it('lets a failed offer fail the acceptance, so the event is not acknowledged', async () => {
    const { accept } = accepting(endpoint(), async () => {
      throw new Error('database down');
    });
    await assert.rejects(accept.execute(alarmEvent('acc-1')), /database down/);
  });

  it('offers a replayed event nothing: it queues the next attempt once any hold of the first has expired', async () => {
    const { accept, queued, offers } = accepting(endpoint());
    const event = alarmEvent('acc-1');
    await accept.execute(event);
    assert.equal(await accept.execute(event), 'duplicate');
    assert.equal(offers.length, 1);
    assert.equal(queued.length, 1);
    assert.equal(queued[0]?.attempt, 2);
    assert.equal(queued[0]?.dueAt.getTime(), NOW.getTime() + HOLD_LEASE_MS);
  });

  it('stores deliveries to a missing or disabled endpoint dead, owing DeliveryFailed, and offers none', async () => {
    for (const [found, reason] of [
      [null, 'no-endpoint'],
      [endpoint({ status: 'disabled' }), 'endpoint-disabled'],
    ] as const) {
      const { accept, deliveries, queued, offers } = accepting(found);
      const event = alarmEvent('acc-1');
      assert.equal(await accept.execute(event), 'dead-on-arrival');
      assert.equal(deliveries.get(event.notificationId)?.failureReason, reason);
      assert.equal(queued[0]?.outbox, true);
      assert.equal(queued[0]?.dueAt.getTime(), OUTBOX_DUE_AT.getTime());
      assert.deepEqual(offers, []);
    }
  });
});
