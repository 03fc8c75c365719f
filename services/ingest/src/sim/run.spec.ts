import assert from 'node:assert/strict';
import type { EventToPublish, PublishResult, TopicName } from '@stormhook/kafka';
import { feedV1 } from '@stormhook/proto';
import { runSimulator } from './run.js';
import { TopicNames } from '@stormhook/kafka';

class CountingSink {
  readonly sends: Array<{ topic: TopicName; count: number; bytes: number }> = [];
  readonly times: number[] = [];
  async publish(topic: TopicName, events: readonly EventToPublish[]): Promise<PublishResult> {
    this.sends.push({ topic, count: events.length, bytes: events.reduce((n, e) => n + e.value.length, 0) });
    if (topic === TopicNames.FeedLightning) for (const e of events) this.times.push(feedV1.LightningStrike.decode(e.value).timeEpochMs);
    return { eventIds: events.map(() => 'x') };
  }
}

describe('runSimulator', () => {
  it('publishes a stretch of past weather as fast as possible, the latest forecast first, in sends under 1 MB', async () => {
    const sink = new CountingSink();
    const start = Date.UTC(2025, 6, 15, 13, 1);
    const summary = await runSimulator({
      sink,
      startMs: start,
      durationMs: 30 * 60_000,
      sim: { forecast: { days: 7, gridDeg: 0.5 } },
      clock: () => Date.UTC(2025, 6, 16),
    });
    assert.equal(summary.ticks, 180);
    assert.equal(sink.sends[0]!.topic, TopicNames.FeedForecast);
    assert.ok((summary.records[TopicNames.FeedForecast] ?? 0) > 1);
    assert.ok(
      sink.sends.every((s) => s.bytes < 1_000_000),
      'every send under 1 MB',
    );
    // A tick ending at t carries the flashes of (t - 10 s, t].
    assert.ok(sink.times.length > 0 && sink.times.every((t) => t > start - 10_000 && t < start + 30 * 60_000));
  });

  it('never publishes a tick before its time, and stops when aborted', async () => {
    const sink = new CountingSink();
    const now = Date.now();
    const abort = new AbortController();
    const summary = await runSimulator({
      sink,
      startMs: now - 60_000,
      rate: 0,
      // One-second ticks, so the first tick after now is at most a second away.
      sim: { tickMs: 1_000, forecast: { enabled: false } },
      signal: abort.signal,
      onTick: ({ timeMs }) => {
        assert.ok(timeMs <= Date.now(), 'tick published before its time');
        if (timeMs >= now) abort.abort();
      },
    });
    assert.ok(summary.toMs >= now && summary.toMs < now + 2_000, `stopped at ${summary.toMs - now} ms`);
  });

  it('runs live by default after publishing its backfill at once, not the backfill behind real time', async () => {
    const sink = new CountingSink();
    const now = Date.now();
    const abort = new AbortController();
    const reached: number[] = [];
    await runSimulator({
      sink,
      backfillMs: 5 * 60_000,
      sim: { tickMs: 1_000, forecast: { enabled: false } },
      signal: abort.signal,
      onTick: ({ timeMs }) => {
        reached.push(Date.now());
        if (timeMs >= now) abort.abort();
      },
    });
    // Five minutes of one-second ticks, then the first live one: seconds, not five minutes.
    assert.ok(reached.length >= 300, `${reached.length} ticks`);
    assert.ok(reached.at(-1)! - now < 10_000, `reached real time after ${reached.at(-1)! - now} ms`);
  });
});
