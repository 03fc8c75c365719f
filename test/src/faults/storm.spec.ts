import { strict as assert } from 'node:assert';
import type { EventToPublish } from '@stormhook/kafka';
import { feedV1 } from '@stormhook/proto';
import { Storm, STORM_BOX, uniformIn } from './storm.js';

const decode = (e: EventToPublish) => feedV1.LightningStrike.decode(e.value);

describe('Storm', () => {
  it('publishes rate x seconds strikes once each, the targets spread evenly with the last record a target', async () => {
    const sent: EventToPublish[] = [];
    const targets = Array.from({ length: 10 }, (_, k) => ({ point: { lat: 40 + k * 0.01, lng: 30 } }));
    const storm = new Storm({
      rate: 4_000,
      seconds: 0.25,
      targets,
      idPrefix: 's',
      background: uniformIn(STORM_BOX, 1),
      publish: async (events) => void sent.push(...events),
    });
    const stats = await storm.run();
    assert.equal(stats.offered, 1_000);
    assert.equal(stats.published, 1_000);
    const ids = sent.map((e) => decode(e).sourceEventId);
    assert.equal(new Set(ids).size, 1_000);
    const targetPositions = storm.targetIds.map((id) => ids.indexOf(id));
    assert.deepEqual(targetPositions, [99, 199, 299, 399, 499, 599, 699, 799, 899, 999]);
    assert.equal(decode(sent[999]!).latitude, 40.09);
    assert.equal(storm.publishedAt.size, 10);
  });

  it('retries a refused send with the same records, so nothing is dropped or doubled', async () => {
    const accepted: string[] = [];
    let refusals = 2;
    const storm = new Storm({
      rate: 2_000,
      seconds: 0.1,
      targets: [{ point: { lat: 40, lng: 30 } }],
      idPrefix: 'r',
      background: uniformIn(STORM_BOX, 2),
      publish: async (events) => {
        if (refusals-- > 0) throw new Error('broker not available');
        accepted.push(...events.map((e) => decode(e).sourceEventId));
      },
    });
    const stats = await storm.run();
    assert.equal(stats.failedSends, 2);
    assert.equal(accepted.length, 200);
    assert.equal(new Set(accepted).size, 200);
  });

  it('refuses more targets than strikes', () => {
    assert.throws(
      () =>
        new Storm({
          rate: 1,
          seconds: 1,
          targets: [{ point: { lat: 0, lng: 0 } }, { point: { lat: 0, lng: 0 } }],
          idPrefix: 'x',
          background: uniformIn(STORM_BOX, 3),
          publish: async () => undefined,
        }),
      /cannot carry 2 target strikes/,
    );
  });
});
