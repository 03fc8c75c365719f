import assert from 'node:assert/strict';
import { createNanoClock, formatLocalTimestamp, localTimestamp } from './timestamp.js';

const LOCAL_NANO_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/;

describe('local nanosecond timestamp', () => {
  it('has nine fractional digits and no zone designator', () => {
    const stamp = localTimestamp();
    assert.match(stamp, LOCAL_NANO_DATE_TIME);
    assert.doesNotMatch(stamp, /(Z|[+-]\d{2}:?\d{2})$/);
  });

  it('formats in the process-local timezone', () => {
    const millis = Date.UTC(2026, 10, 21, 11, 3, 7, 123);
    const nanos = BigInt(millis) * 1_000_000n + 456_789n;
    const local = new Date(millis);
    const expected =
      `${local.getFullYear()}-${String(local.getMonth() + 1).padStart(2, '0')}-${String(local.getDate()).padStart(2, '0')}` +
      `T${String(local.getHours()).padStart(2, '0')}:${String(local.getMinutes()).padStart(2, '0')}:` +
      `${String(local.getSeconds()).padStart(2, '0')}.123456789`;
    assert.equal(formatLocalTimestamp(nanos), expected);
  });

  it('keeps leading zeros of the fraction', () => {
    const nanos = BigInt(Date.UTC(2026, 0, 1)) * 1_000_000n + 42n;
    assert.match(formatLocalTimestamp(nanos), /\.000000042$/);
  });

  it('reads close to the wall clock and is strictly increasing', () => {
    const clock = createNanoClock();
    const first = clock.nowNanos();
    const second = clock.nowNanos();
    assert.ok(second > first, `${second} > ${first}`);
    const wall = BigInt(Date.now()) * 1_000_000n;
    const drift = first > wall ? first - wall : wall - first;
    assert.ok(drift < 50_000_000n, `drift ${drift} ns`);
  });

  it('uses the monotonic clock for sub-millisecond digits', () => {
    let mono = 5_000n;
    const clock = createNanoClock(
      () => 1_700_000_000_000,
      () => mono,
    );
    mono += 1_234n;
    assert.equal(clock.nowNanos(), 1_700_000_000_000n * 1_000_000n + 1_234n);
  });

  it('re-anchors when the wall clock is stepped, and never goes backwards', () => {
    let wall = 1_700_000_000_000;
    let mono = 0n;
    const clock = createNanoClock(
      () => wall,
      () => mono,
    );
    const before = clock.nowNanos();
    wall += 60_000; // the wall clock jumps a minute forward
    mono += 10n;
    const after = clock.nowNanos();
    assert.equal(after, BigInt(wall) * 1_000_000n);
    wall -= 120_000; // and two minutes back
    mono += 10n;
    const later = clock.nowNanos();
    assert.ok(later > after && after > before);
  });
});
