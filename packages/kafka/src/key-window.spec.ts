import assert from 'node:assert/strict';
import type { KafkaMessage } from 'kafkajs';
import { runKeyWindow, type KeyWindowDeps } from './key-window.js';
import type { ProcessResult } from './record-processor.js';

function message(offset: number, key: string | null): KafkaMessage {
  return {
    offset: String(offset),
    key: key === null ? null : Buffer.from(key),
    value: Buffer.from(''),
    timestamp: '0',
    attributes: 0,
    headers: {},
  } as KafkaMessage;
}

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A window over `keys` whose handler takes `delay(offset)` ms and answers `result(offset)`. */
function harness(
  keys: Array<string | null>,
  options: { limit: number; delay?: (offset: number) => number; result?: (offset: number) => ProcessResult; commitEvery?: number },
) {
  const started: number[] = [];
  const finished: number[] = [];
  const commits: string[] = [];
  let running = 0;
  let peak = 0;
  const deps: KeyWindowDeps = {
    limit: options.limit,
    commitEvery: options.commitEvery ?? 100,
    async process(m) {
      const offset = Number(m.offset);
      started.push(offset);
      peak = Math.max(peak, ++running);
      await tick(options.delay?.(offset) ?? 1);
      running--;
      finished.push(offset);
      return options.result?.(offset) ?? { kind: 'done', via: 'ok' };
    },
    commit: async (offset) => {
      commits.push(offset);
    },
    shouldStop: () => false,
    canCommit: () => true,
    heartbeat: async () => undefined,
  };
  const messages = keys.map((key, i) => message(i, key));
  return { run: () => runKeyWindow(messages, deps), started, finished, commits, peak: () => peak };
}

describe('runKeyWindow', () => {
  it('overlaps records of different keys up to the limit and commits the last offset', async () => {
    const h = harness(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'], { limit: 4, delay: () => 10 });
    assert.deepEqual(await h.run(), { kind: 'done' });
    assert.equal(h.peak(), 4);
    assert.equal(h.finished.length, 8);
    assert.deepEqual(h.commits, ['7']);
  });

  it('keeps the order of records sharing a key, even when a later one would be quicker', async () => {
    // Offsets 0, 2, 4 share key "k"; 0 is slow, so 2 and 4 must wait for it while "x" records run.
    const h = harness(['k', 'x', 'k', 'x', 'k', 'y'], { limit: 6, delay: (o) => (o === 0 ? 30 : 1) });
    await h.run();
    const kOrder = h.finished.filter((o) => [0, 2, 4].includes(o));
    assert.deepEqual(kOrder, [0, 2, 4]);
    assert.ok(h.finished.indexOf(1) < h.finished.indexOf(0), 'another key overtook the slow record');
  });

  it('commits only the unbroken prefix of finished records when one fails, and starts no record behind it on its key', async () => {
    const h = harness(['a', 'b', 'a', 'c', 'd'], {
      limit: 5,
      delay: (o) => (o === 1 ? 20 : 1),
      result: (o) => (o === 1 ? { kind: 'fatal', error: new Error('database down') } : { kind: 'done', via: 'ok' }),
    });
    const exit = await h.run();
    assert.equal(exit.kind, 'fatal');
    assert.equal(exit.kind === 'fatal' && exit.error.message, 'database down');
    // Offset 0 is done; 1 failed, so nothing after it is committed although 2..4 finished.
    assert.deepEqual(h.commits, ['0']);
  });

  it('does not start a record whose predecessor on the same key was abandoned', async () => {
    const h = harness(['a', 'a', 'b'], { limit: 3, result: (o) => (o === 0 ? { kind: 'abandoned' } : { kind: 'done', via: 'ok' }) });
    assert.deepEqual(await h.run(), { kind: 'abandoned' });
    assert.ok(!h.started.includes(1));
    assert.deepEqual(h.commits, []);
  });

  it('commits along the way on long batches', async () => {
    const h = harness(
      Array.from({ length: 50 }, (_, i) => `k${i}`),
      { limit: 2, commitEvery: 10 },
    );
    await h.run();
    assert.ok(h.commits.length >= 4, `commits: ${h.commits.join(',')}`);
    assert.deepEqual(
      [...h.commits].map(Number),
      [...h.commits].map(Number).sort((a, b) => a - b),
    );
    assert.equal(h.commits.at(-1), '49');
  });

  it('treats records without a key as independent', async () => {
    const h = harness([null, null, null], { limit: 3, delay: () => 10 });
    await h.run();
    assert.equal(h.peak(), 3);
  });

  it('keeps heartbeating while it waits for records in flight', async () => {
    let beats = 0;
    const deps: KeyWindowDeps = {
      limit: 2,
      heartbeatEveryMs: 10,
      process: async () => {
        await tick(120);
        return { kind: 'done', via: 'ok' };
      },
      commit: async () => undefined,
      shouldStop: () => false,
      canCommit: () => true,
      heartbeat: async () => {
        beats++;
      },
    };
    await runKeyWindow([message(0, 'a'), message(1, 'b'), message(2, 'c')], deps);
    // 3 beats come from starting the records; the rest from the ~240 ms of waiting (two rounds of 120 ms).
    assert.ok(beats >= 3 + 10, `only ${beats} heartbeats while records ran for about 240 ms`);
  });
});
