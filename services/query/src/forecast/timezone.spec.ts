import assert from 'node:assert/strict';
import { localParts } from './timezone.js';

/** What ICU says for one instant, field by field: the reference the cached offsets must agree with. */
function icuParts(epochMs: number, zone: string) {
  const parts: Record<string, string> = {};
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  for (const p of format.formatToParts(new Date(epochMs))) parts[p.type] = p.value;
  return {
    year: Number(parts['year']),
    month: Number(parts['month']),
    day: Number(parts['day']),
    hour: Number(parts['hour']),
    minute: Number(parts['minute']),
  };
}

describe('localParts', () => {
  // Zones with DST (Cyprus), none (Istanbul since 2016), quarter-hour and half-hour offsets.
  const zones = ['Europe/Istanbul', 'Asia/Famagusta', 'Asia/Nicosia', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'Etc/GMT-3'];

  it('agrees with ICU on every field across years of random instants', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(2015, 0, 1);
    const to = Date.UTC(2030, 0, 1);
    for (const zone of zones) {
      for (let i = 0; i < 2_000; i++) {
        const at = Math.floor(from + random() * (to - from));
        const { offsetMinutes, ...wall } = localParts(at, zone);
        assert.deepEqual(wall, icuParts(at, zone), `${zone} at ${new Date(at).toISOString()}`);
        assert.ok(Number.isInteger(offsetMinutes));
      }
    }
  });

  it('switches offset exactly at a DST transition (Cyprus, 2026-03-29 01:00 UTC)', () => {
    const transition = Date.UTC(2026, 2, 29, 1, 0, 0);
    assert.equal(localParts(transition - 1, 'Asia/Nicosia').offsetMinutes, 120);
    assert.equal(localParts(transition, 'Asia/Nicosia').offsetMinutes, 180);
    assert.deepEqual(icuParts(transition - 1, 'Asia/Nicosia').hour, localParts(transition - 1, 'Asia/Nicosia').hour);
    assert.equal(localParts(transition, 'Asia/Nicosia').hour, 4);
  });
});
