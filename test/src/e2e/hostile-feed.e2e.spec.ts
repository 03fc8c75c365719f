import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { DeadLetterReader } from './support/dead-letters.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { FEED_TOPICS, FeedPublisher } from './support/feed-publisher.js';
import { MINUTE, precipitation, thunderstorm } from './support/feed-records.js';
import { eventually } from './support/geo-math.js';
import { hostileRecords } from './support/hostile-records.js';
import { CANKAYA } from './support/places.js';
import { TopicNames } from '@stormhook/kafka';

/**
 * Issue item 4, feeds: malformed and oversized records on every raw feed topic. Nothing crashes
 * (health stays up, later records keep flowing) and every reject reaches the dead-letter topic with
 * its reason and where it came from.
 */
describe('e2e hostile input: malformed and oversized feed records', function () {
  this.timeout(120_000);
  let stack: E2eStack;
  let letters: DeadLetterReader;
  const tag = `hx${randomBytes(3).toString('hex')}`;

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    const feed = await stack.feed();
    letters = await DeadLetterReader.start(stack.kafkaBrokers, feed.physical(TopicNames.DeadLetter), `${stack.topicPrefix}.e2e-dead-letter-reader-${tag}`);
  });

  after(async () => {
    await letters?.stop();
  });

  it('dead-letters every reject of every feed topic with its reason, source topic, partition and offset', async () => {
    const feed = await stack.feed();
    const hostile = hostileRecords(FEED_TOPICS, tag);
    // One record per produce request: a batch of several large ones could pass the broker's limit.
    for (const h of hostile) await feed.raw(h.topic, [h.record]);
    const found = await letters.waitForKeys(
      hostile.map((h) => h.key),
      60_000,
    );
    const missing = hostile.filter((h) => !found.has(h.key)).map((h) => `${h.topic} ${h.flaw}`);
    stack.figures['feed rejects dead-lettered'] = `${found.size} of ${hostile.length} (lost ${missing.length})`;
    assert.deepEqual(missing, [], 'rejects that never reached the dead-letter topic');
    for (const h of hostile) {
      const letter = found.get(h.key)!;
      const what = `${h.topic} ${h.flaw}`;
      assert.ok((letter.headers['deadletter-reason'] ?? '').length > 0, `${what}: no reason`);
      assert.equal(letter.headers['deadletter-source-topic'], feed.physical(h.topic), `${what}: source topic`);
      assert.match(letter.headers['deadletter-source-partition'] ?? '', /^\d+$/, `${what}: source partition`);
      assert.match(letter.headers['deadletter-source-offset'] ?? '', /^\d+$/, `${what}: source offset`);
      assert.ok(!Number.isNaN(Date.parse(letter.headers['deadletter-failed-at'] ?? '')), `${what}: failed-at`);
    }
    // Reasons name what is wrong (a sample of the kinds FEEDS.md lists).
    const reason = (topic: string, flaw: string) => found.get(`${tag}-${topic}-${flaw}`)?.headers['deadletter-reason'] ?? '';
    assert.match(reason('lightning', 'no-headers'), /event-type/);
    assert.match(reason('precipitation', 'rule-broken'), /geometry/);
    assert.match(reason('lightning', 'rule-broken'), /latitude/);
    assert.match(reason('precipitation', 'oversized'), /vert/i);
    const reasons = hostile.map((h) => `    ${h.topic} ${h.flaw}: ${found.get(h.key)?.headers['deadletter-reason']?.slice(0, 140)}`);
    process.stdout.write(`      dead-letter reasons:\n${reasons.join('\n')}\n`);
  });

  it("refuses a record above the broker's 1 MB limit at the door", async () => {
    // Its own producer: a refused batch must not disturb the shared one.
    const door = await FeedPublisher.connect(stack.kafkaBrokers, stack.topicPrefix, true);
    try {
      await assert.rejects(
        door.raw(TopicNames.FeedLightning, [{ key: `${tag}-too-large`, value: Buffer.alloc(1_100_000, 1), headers: { 'event-type': 'x' } }]),
        /too large|MESSAGE_TOO_LARGE|size/i,
      );
    } finally {
      await door.close();
    }
  });

  it('keeps every component up and keeps accepting the records behind the rejects', async () => {
    // The components are named to ADMIN only; one of them missing would fail the 200 anyway.
    const health = await stack.api.expect(200, 'GET', '/v1/health', { token: await stack.adminToken() });
    assert.ok(Object.keys(health.body.components as Record<string, unknown>).length >= 8, JSON.stringify(health.body));
    for (const [name, component] of Object.entries(health.body.components as Record<string, { status: string }>)) assert.equal(component.status, 'up', name);
    const feed = await stack.feed();
    const now = Date.now();
    await feed.precipitation([precipitation(`${tag}-after`, CANKAYA.centre, now - MINUTE, { rainRate: 1 })]);
    await feed.thunderstorm([thunderstorm(`${tag}-after`, CANKAYA.centre, now - MINUTE, now + 10 * MINUTE)]);
    const admin = await stack.adminToken();
    const window = () => ({ backwardInterval: 3600, endTimeEpoch: Date.now() + MINUTE, pageNumber: 0, pageSize: 100 });
    await eventually(
      async () => {
        const answer = await stack.api.expect(200, 'POST', '/v1/precipitations/page', { token: admin, body: window() });
        return answer.body.precipitations.some((p: { eventId: string }) => p.eventId === `prc_${tag}-after`) ? true : undefined;
      },
      'the precipitation sent after the rejects',
      45_000,
    );
    await eventually(
      async () => {
        const answer = await stack.api.expect(200, 'POST', '/v1/thunderstorms/page', { token: admin, body: window() });
        return answer.body.thunderstorms.some((t: { eventId: string }) => t.eventId === `tst_${tag}-after`) ? true : undefined;
      },
      'the thunderstorm sent after the rejects',
      45_000,
    );
  });
});
