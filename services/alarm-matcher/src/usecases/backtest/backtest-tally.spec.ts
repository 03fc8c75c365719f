import assert from 'node:assert/strict';
import { daysOf, istanbulDay, MAX_SAMPLES, samplesOf, tally } from './backtest-tally.js';
import type { SimulatedCallback } from './simulated-callback.js';

const HOUR = 3_600_000;

function callback(atMs: number, callbackType = 'lightning.strike', stage = 'START'): SimulatedCallback {
  return {
    atMs,
    callbackType,
    stage,
    eventId: `e${atMs}`,
    opens: stage === 'START',
    registrationId: 'r',
    idStage: stage,
    body: () => ({ type: callbackType, id: `n${atMs}` }),
  };
}

describe('back-test tally', () => {
  it('buckets callbacks by Europe/Istanbul day: 20:59 UTC is the evening, 21:00 UTC the next day', () => {
    const midnight = Date.UTC(2026, 6, 10, 21, 0); // 00:00 on 11 July in Istanbul (UTC+3)
    assert.equal(istanbulDay(midnight - 60_000), '2026-07-10');
    assert.equal(istanbulDay(midnight), '2026-07-11');
    const { days } = tally(
      [callback(midnight - 60_000), callback(midnight + 60_000), callback(midnight + 90_000, 'lightning.all_clear', 'ALL_CLEAR')],
      Date.UTC(2026, 6, 9, 21),
      Date.UTC(2026, 6, 12, 21),
    );
    assert.deepEqual(
      days.map((d) => [d.day, d.callbacks]),
      [
        ['2026-07-10', 1],
        ['2026-07-11', 2],
        ['2026-07-12', 0],
      ],
    );
    assert.deepEqual(days[1]!.byType, [
      { callbackType: 'lightning.all_clear', stage: 'ALL_CLEAR', callbacks: 1 },
      { callbackType: 'lightning.strike', stage: 'START', callbacks: 1 },
    ]);
  });

  it('lists every day a window touches, a partial first and last day included', () => {
    assert.deepEqual(daysOf(Date.UTC(2026, 0, 1, 20), Date.UTC(2026, 0, 2, 22)), ['2026-01-01', '2026-01-02', '2026-01-03']);
  });

  it('keeps at most 20 samples, spread over the window, with every type and stage among them', () => {
    const many = Array.from({ length: 500 }, (_, i) => callback(i * HOUR));
    many.splice(250, 0, callback(250 * HOUR - 1, 'lightning.all_clear', 'ALL_CLEAR'));
    const samples = samplesOf(many);
    assert.equal(samples.length, MAX_SAMPLES);
    assert.ok(
      samples.some((s) => s.callbackType === 'lightning.all_clear'),
      'the rare type is shown',
    );
    assert.equal(samples[0]!.atMs, 0);
    assert.equal(samples[samples.length - 1]!.atMs, 499 * HOUR);
    assert.deepEqual(JSON.parse(samples[0]!.payloadJson), { type: 'lightning.strike', id: 'n0', simulation: true });
    const times = samples.map((s) => s.atMs);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
    );
  });
});
