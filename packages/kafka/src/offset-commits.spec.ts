import assert from 'node:assert/strict';
import { OffsetCommits, type PartitionOffset } from './offset-commits.js';

function harness(policy = { everyMs: 1_000, everyRecords: 100 }) {
  let now = 10_000;
  const sent: PartitionOffset[][] = [];
  const commits = new OffsetCommits(policy, () => now);
  const send = async (offsets: readonly PartitionOffset[]) => {
    sent.push([...offsets]);
  };
  return { commits, sent, send, advance: (ms: number) => (now += ms) };
}

describe('OffsetCommits', () => {
  it('commits a partition after everyRecords finished records, not per record', async () => {
    const { commits, sent, send } = harness();
    commits.finished('t', 0, '0');
    await commits.commitDue(send); // the first finished work of a partition is due at once
    assert.deepEqual(sent, [[{ topic: 't', partition: 0, offset: '1' }]]);
    for (let offset = 1; offset < 100; offset++) {
      commits.finished('t', 0, String(offset));
      if (commits.isDue()) await commits.commitDue(send);
    }
    assert.equal(sent.length, 1, '99 more records are below everyRecords');
    commits.finished('t', 0, '100');
    assert.equal(commits.isDue(), true);
    await commits.commitDue(send);
    assert.deepEqual(sent[1], [{ topic: 't', partition: 0, offset: '101' }]);
    assert.equal(commits.requests, 2);
  });

  it('commits after everyMs even with few records, and only partitions that are due', async () => {
    const { commits, sent, send, advance } = harness();
    commits.finished('t', 0, '0');
    commits.finished('t', 1, '0');
    await commits.commitDue(send);
    commits.finished('t', 0, '1');
    advance(500);
    commits.finished('t', 1, '1');
    assert.equal(commits.isDue(), false);
    advance(600);
    await commits.commitDue(send);
    assert.deepEqual(sent[1], [
      { topic: 't', partition: 0, offset: '2' },
      { topic: 't', partition: 1, offset: '2' },
    ]);
    assert.equal(commits.isDue(), false, 'nothing left once committed');
  });

  it('commitAll sends every uncommitted prefix at once and nothing twice', async () => {
    const { commits, sent, send } = harness({ everyMs: 60_000, everyRecords: 1_000 });
    commits.finished('a', 0, '0');
    await commits.commitAll(send);
    commits.finished('a', 0, '5');
    commits.finished('b', 3, '41');
    await commits.commitAll(send);
    await commits.commitAll(send);
    assert.deepEqual(sent, [
      [{ topic: 'a', partition: 0, offset: '1' }],
      [
        { topic: 'a', partition: 0, offset: '6' },
        { topic: 'b', partition: 3, offset: '42' },
      ],
    ]);
  });

  it('never moves a partition back when records are read again after a rejoin', async () => {
    const { commits, sent, send } = harness();
    commits.finished('t', 0, '9');
    await commits.commitAll(send);
    commits.finished('t', 0, '4');
    await commits.commitAll(send);
    assert.deepEqual(sent, [[{ topic: 't', partition: 0, offset: '10' }]]);
  });

  it('keeps a failed commit pending for the next one', async () => {
    const { commits, sent, send } = harness();
    commits.finished('t', 0, '3');
    await assert.rejects(
      commits.commitAll(async () => Promise.reject(new Error('coordinator moved'))),
      /coordinator moved/,
    );
    await commits.commitAll(send);
    assert.deepEqual(sent, [[{ topic: 't', partition: 0, offset: '4' }]]);
  });

  it('forgets partitions this member no longer owns', async () => {
    const { commits, sent, send } = harness();
    commits.finished('t', 0, '3');
    commits.finished('t', 1, '7');
    commits.retain((_, partition) => partition === 1);
    await commits.commitAll(send);
    assert.deepEqual(sent, [[{ topic: 't', partition: 1, offset: '8' }]]);
  });

  it('serialises commits so offsets reach the broker in order', async () => {
    const { commits } = harness();
    const order: string[] = [];
    let releaseFirst: () => void = () => {};
    const slow = new Promise<void>((resolve) => (releaseFirst = resolve));
    let sending: () => void = () => {};
    const firstSending = new Promise<void>((resolve) => (sending = resolve));
    commits.finished('t', 0, '1');
    const first = commits.commitAll(async (o) => {
      sending();
      await slow;
      order.push(o[0]!.offset);
    });
    await firstSending;
    // More work finishes while the first request is still out: the second must wait for it.
    commits.finished('t', 0, '2');
    const second = commits.commitAll(async (o) => {
      order.push(o[0]!.offset);
    });
    releaseFirst();
    await Promise.all([first, second]);
    assert.deepEqual(order, ['2', '3']);
  });

  it('rejects a policy that would commit never or always', () => {
    assert.throws(() => new OffsetCommits({ everyMs: 0, everyRecords: 10 }), /everyMs must be a positive integer/);
    assert.throws(() => new OffsetCommits({ everyMs: 10, everyRecords: 1.5 }), /everyRecords must be a positive integer/);
  });
});
