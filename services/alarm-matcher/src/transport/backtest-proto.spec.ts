import assert from 'node:assert/strict';
import { alarmV1 } from '@stormhook/proto';
import type { BacktestOutcome } from '../usecases/backtest/backtest-outcome.js';
import { backtestToProto } from './backtest-proto.js';

const FROM = Date.UTC(2026, 10, 20, 21, 0, 0);
const TO = Date.UTC(2026, 10, 22, 21, 0, 0);

const quiet: BacktestOutcome = {
  fromMs: FROM,
  toMs: TO,
  callbacks: 0,
  days: [
    { day: '2026-11-21', callbacks: 0, byType: [] },
    { day: '2026-11-22', callbacks: 0, byType: [] },
  ],
  byType: [],
  samples: [],
  coverage: [{ dataKind: 'LIGHTNING', covered: [{ fromMs: FROM, toMs: FROM + 3_600_000 }], gaps: [{ fromMs: FROM + 3_600_000, toMs: TO }] }],
  warnings: ['lightning data is missing for part of the window'],
};

/** What the gateway decodes from the wire. */
const overTheWire = (outcome: BacktestOutcome): alarmV1.BacktestAlarmResponse =>
  alarmV1.BacktestAlarmResponse.decode(alarmV1.BacktestAlarmResponse.encode(backtestToProto(outcome)));

describe('backtestToProto', () => {
  it('leaves the first and last callback and the sweep absent without callbacks or threshold, every day and span kept', () => {
    const answer = overTheWire(quiet);
    assert.equal(answer.firstCallbackEpochMs ?? undefined, undefined);
    assert.equal(answer.lastCallbackEpochMs ?? undefined, undefined);
    assert.equal(answer.sweep ?? undefined, undefined);
    assert.deepEqual(
      answer.days.map((d) => d.day),
      ['2026-11-21', '2026-11-22'],
    );
    assert.deepEqual(answer.coverage[0]?.gaps, [{ fromEpochMs: FROM + 3_600_000, toEpochMs: TO }]);
    assert.deepEqual(answer.warnings, quiet.warnings);
  });

  it('carries every count, sample and sweep point of a window with callbacks', () => {
    const strike = { callbackType: 'lightning.strike', stage: 'START', callbacks: 2 };
    const answer = overTheWire({
      ...quiet,
      callbacks: 2,
      firstCallbackMs: FROM + 60_000,
      lastCallbackMs: FROM + 120_000,
      days: [{ day: '2026-11-21', callbacks: 2, byType: [strike] }],
      byType: [strike],
      samples: [{ callbackType: 'lightning.strike', atMs: FROM + 60_000, payloadJson: '{"type":"lightning.strike","simulation":true}' }],
      sweep: {
        field: 'filter.lightning.peakCurrent',
        current: '10000',
        points: [
          { value: '0', callbacks: 5 },
          { value: '10000', callbacks: 2 },
        ],
      },
    });
    assert.equal(answer.callbacks, 2);
    assert.equal(answer.firstCallbackEpochMs, FROM + 60_000);
    assert.equal(answer.lastCallbackEpochMs, FROM + 120_000);
    assert.deepEqual(answer.days[0]?.byType, [strike]);
    assert.deepEqual(answer.samples, [
      { callbackType: 'lightning.strike', atEpochMs: FROM + 60_000, payloadJson: '{"type":"lightning.strike","simulation":true}' },
    ]);
    assert.deepEqual(answer.sweep, {
      field: 'filter.lightning.peakCurrent',
      current: '10000',
      points: [
        { value: '0', callbacks: 5 },
        { value: '10000', callbacks: 2 },
      ],
    });
  });
});
