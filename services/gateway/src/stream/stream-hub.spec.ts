import assert from 'node:assert/strict';
import { KEEP_ALIVE_FRAME } from './sse.js';
import { StreamHub, type StreamHubOptions, type StreamSink } from './stream-hub.js';
import type { StreamItem, StreamSelection } from './stream-selection.js';

/** A connection whose socket buffer holds `capacity` frames; `drain()` empties it as a reading client would. */
class FakeSink implements StreamSink {
  readonly received: string[] = [];
  buffered = 0;
  closedWith: string | undefined;
  private drainListener: (() => void) | undefined;

  constructor(private readonly capacity = Infinity) {}

  write(frame: string): boolean {
    assert.equal(this.closedWith, undefined, 'no write after close');
    this.received.push(frame);
    this.buffered += 1;
    return this.buffered < this.capacity;
  }
  onDrain(listener: () => void): void {
    this.drainListener = listener;
  }
  close(final: string): void {
    this.closedWith = final;
  }
  /** The client read everything buffered. */
  drain(): void {
    this.buffered = 0;
    const listener = this.drainListener;
    this.drainListener = undefined;
    listener?.();
  }
  frames(): string[] {
    return this.received.filter((f) => f !== KEEP_ALIVE_FRAME && !f.startsWith('event: ready'));
  }
}

const everywhere: StreamSelection = { kinds: new Set(['lightning', 'thunderstorm', 'precipitation']), bbox: undefined, areas: { all: true } };
const ankaraOnly: StreamSelection = { ...everywhere, areas: { all: false, keys: new Set(['TUR:6']) } };

function strike(n: number, area = 'TUR:6'): StreamItem {
  return { kind: 'lightning', areas: [area], bbox: { minLng: 32.8, minLat: 39.9, maxLng: 32.8, maxLat: 39.9 }, frame: `event: lightning\ndata: ${n}\n\n` };
}

/** One user per account, unless a test says otherwise. */
const owner = (account: string, userId = `user-of-${account}`) => ({ account, userId });

function hub(options: Partial<StreamHubOptions> & { now?: () => number } = {}): StreamHub {
  return new StreamHub({ bufferLimit: 5, bufferChars: 1_000_000, perAccountLimit: 2, keepAliveMs: 15_000, maxDurationMs: 3_600_000, ...options });
}

describe('StreamHub', () => {
  it('writes the ready frame first, then each admitted event once per stream, in order', () => {
    const h = hub();
    const all = new FakeSink();
    const ankara = new FakeSink();
    assert.ok(h.open(owner('acc-a'), everywhere, all, 'event: ready\ndata: {}\n\n').ok);
    assert.ok(h.open(owner('acc-b'), ankaraOnly, ankara, 'event: ready\ndata: {}\n\n').ok);
    h.publish(strike(1, 'TUR:6'));
    h.publish(strike(2, 'TUR:34'));
    h.publish(strike(3, 'TUR:6'));
    assert.equal(all.received[0], 'event: ready\ndata: {}\n\n');
    assert.deepEqual(all.frames(), [strike(1).frame, strike(2).frame, strike(3).frame]);
    assert.deepEqual(ankara.frames(), [strike(1).frame, strike(3).frame]);
  });

  it('holds events while a connection drains and delivers them in order when it does', () => {
    const h = hub({ bufferLimit: 10 });
    const sink = new FakeSink(2);
    h.open(owner('acc'), everywhere, sink, 'event: ready\n\n');
    for (let n = 1; n <= 6; n++) h.publish(strike(n));
    // ready + strike 1 filled the socket; 2..6 wait in the hub.
    assert.deepEqual(sink.frames(), [strike(1).frame]);
    sink.drain();
    sink.drain();
    sink.drain();
    assert.deepEqual(
      sink.frames(),
      [1, 2, 3, 4, 5, 6].map((n) => strike(n).frame),
    );
    assert.equal(sink.closedWith, undefined);
  });

  it('cuts off a client that falls more than bufferLimit events behind, with an end event saying why, and keeps serving the others', () => {
    const h = hub({ bufferLimit: 3 });
    const slow = new FakeSink(1);
    const fast = new FakeSink();
    h.open(owner('slow'), everywhere, slow, 'event: ready\n\n');
    h.open(owner('fast'), everywhere, fast, 'event: ready\n\n');
    for (let n = 1; n <= 10; n++) h.publish(strike(n));
    assert.ok(slow.closedWith?.startsWith('event: end\n'));
    assert.match(slow.closedWith ?? '', /"reason":"SLOW_CONSUMER"/);
    assert.equal(h.size, 1);
    assert.equal(h.slowConsumerEnds, 1);
    assert.equal(fast.frames().length, 10);
    // A drain after the cut-off writes nothing more (the fake asserts no write after close).
    slow.drain();
  });

  it('cuts off a client whose backlog passes the size limit before the event count', () => {
    const h = hub({ bufferLimit: 100, bufferChars: 300 });
    const slow = new FakeSink(1);
    h.open(owner('slow'), everywhere, slow, 'event: ready\n\n');
    const big = (n: number): StreamItem => ({ ...strike(n), frame: `event: precipitation\ndata: ${'x'.repeat(100)}${n}\n\n` });
    h.publish(big(1));
    h.publish(big(2));
    assert.equal(slow.closedWith, undefined, 'two frames of 130 characters fit in 300');
    h.publish(big(3));
    assert.match(slow.closedWith ?? '', /"reason":"SLOW_CONSUMER"/);
  });

  it('refuses a stream past the per-account limit and frees the slot when one goes away', () => {
    const h = hub({ perAccountLimit: 2 });
    const first = h.open(owner('acc'), everywhere, new FakeSink(), 'r');
    assert.ok(h.open(owner('acc'), everywhere, new FakeSink(), 'r').ok);
    assert.deepEqual(h.open(owner('acc'), everywhere, new FakeSink(), 'r'), { ok: false, reason: 'ACCOUNT_LIMIT' });
    assert.ok(h.open(owner('other'), everywhere, new FakeSink(), 'r').ok, 'another account is not affected');
    assert.ok(first.ok);
    first.stream.detach();
    assert.equal(h.openFor('acc'), 1);
    assert.ok(h.open(owner('acc'), everywhere, new FakeSink(), 'r').ok);
  });

  it('writes nothing to a stream whose client went away', () => {
    const h = hub();
    const sink = new FakeSink();
    const opened = h.open(owner('acc'), everywhere, sink, 'r');
    assert.ok(opened.ok);
    opened.stream.detach();
    h.publish(strike(1));
    assert.deepEqual(sink.received, ['r']);
    assert.equal(h.size, 0);
  });

  it('sends a keep-alive to an idle stream only, and ends a stream at its longest duration', () => {
    let now = 0;
    const h = hub({ keepAliveMs: 15_000, maxDurationMs: 60_000, now: () => now });
    const idle = new FakeSink();
    const busy = new FakeSink();
    h.open(owner('a'), ankaraOnly, idle, 'r');
    h.open(owner('b'), everywhere, busy, 'r');
    now = 10_000;
    h.publish(strike(1, 'TUR:34')); // only the unrestricted stream gets it
    now = 16_000;
    h.tick();
    assert.equal(idle.received.filter((f) => f === KEEP_ALIVE_FRAME).length, 1);
    assert.equal(busy.received.filter((f) => f === KEEP_ALIVE_FRAME).length, 0);
    now = 60_000;
    h.tick();
    assert.match(idle.closedWith ?? '', /"reason":"MAX_DURATION"/);
    assert.match(busy.closedWith ?? '', /"reason":"MAX_DURATION"/);
    assert.equal(h.size, 0);
  });

  it("ends a user's streams when its access changes, and every stream of its account when the plan does", () => {
    const h = hub({ perAccountLimit: 5 });
    const mine = new FakeSink();
    const colleague = new FakeSink();
    const elsewhere = new FakeSink();
    h.open(owner('acc', 'u1'), everywhere, mine, 'r');
    h.open(owner('acc', 'u2'), everywhere, colleague, 'r');
    h.open(owner('other', 'u3'), everywhere, elsewhere, 'r');
    h.accessChanged('u1', 'ROLE_OR_STATUS');
    assert.match(mine.closedWith ?? '', /"reason":"ACCESS_CHANGED"/);
    assert.equal(colleague.closedWith, undefined, "another user's role is not this one's");
    const again = new FakeSink();
    h.open(owner('acc', 'u1'), everywhere, again, 'r');
    h.accessChanged('u1', 'SUBSCRIPTION');
    assert.match(again.closedWith ?? '', /"reason":"ACCESS_CHANGED"/);
    assert.match(colleague.closedWith ?? '', /"reason":"ACCESS_CHANGED"/, 'the plan is the whole account’s');
    assert.equal(elsewhere.closedWith, undefined);
    assert.equal(h.size, 1);
  });

  it('ends every stream when the replica shuts down and opens no more', () => {
    const h = hub();
    const sink = new FakeSink();
    h.open(owner('acc'), everywhere, sink, 'r');
    h.closeAll();
    assert.match(sink.closedWith ?? '', /"reason":"SHUTTING_DOWN"/);
    assert.deepEqual(h.open(owner('acc'), everywhere, new FakeSink(), 'r'), { ok: false, reason: 'CLOSED' });
  });
});
