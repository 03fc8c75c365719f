import assert from 'node:assert/strict';
import { NEVER, quotaWindow } from './quota-window.js';

const at = (iso: string) => new Date(iso);
const iso = (w: { start: Date; end: Date }) => [w.start.toISOString(), w.end.toISOString()];

describe('quotaWindow', () => {
  const now = at('2025-06-18T15:30:00Z'); // a Wednesday

  it('uses UTC calendar periods for an interval of one', () => {
    assert.deepEqual(iso(quotaWindow({ recurrence: 'DAILY', interval: 1 }, now)), ['2025-06-18T00:00:00.000Z', '2025-06-19T00:00:00.000Z']);
    assert.deepEqual(iso(quotaWindow({ recurrence: 'WEEKLY', interval: 1 }, now)), ['2025-06-16T00:00:00.000Z', '2025-06-23T00:00:00.000Z']);
    assert.deepEqual(iso(quotaWindow({ recurrence: 'MONTHLY', interval: 1 }, now)), ['2025-06-01T00:00:00.000Z', '2025-07-01T00:00:00.000Z']);
    assert.deepEqual(iso(quotaWindow({ recurrence: 'YEARLY', interval: 1 }, now)), ['2025-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z']);
  });

  it('starts weeks on Monday, also for dates before the first Monday of 1970', () => {
    const monday = quotaWindow({ recurrence: 'WEEKLY', interval: 1 }, at('2025-06-16T00:00:00Z'));
    assert.equal(monday.start.toISOString(), '2025-06-16T00:00:00.000Z');
    const sunday = quotaWindow({ recurrence: 'WEEKLY', interval: 1 }, at('2025-06-22T23:59:59Z'));
    assert.equal(sunday.start.toISOString(), '2025-06-16T00:00:00.000Z');
    assert.equal(quotaWindow({ recurrence: 'WEEKLY', interval: 1 }, at('1970-01-02T00:00:00Z')).start.toISOString(), '1969-12-29T00:00:00.000Z');
  });

  it('counts several periods per window from the period of the grant', () => {
    const granted = at('2025-03-20T10:00:00Z');
    // March + April, May + June, ...: June belongs to the window that started in May.
    assert.deepEqual(iso(quotaWindow({ recurrence: 'MONTHLY', interval: 2 }, now, granted)), ['2025-05-01T00:00:00.000Z', '2025-07-01T00:00:00.000Z']);
    const grantedMonday = at('2025-06-02T08:00:00Z');
    assert.deepEqual(iso(quotaWindow({ recurrence: 'WEEKLY', interval: 2 }, now, grantedMonday)), ['2025-06-16T00:00:00.000Z', '2025-06-30T00:00:00.000Z']);
    assert.deepEqual(iso(quotaWindow({ recurrence: 'DAILY', interval: 3 }, now, at('2025-06-17T23:00:00Z'))), [
      '2025-06-17T00:00:00.000Z',
      '2025-06-20T00:00:00.000Z',
    ]);
  });

  it('crosses year ends for months', () => {
    assert.deepEqual(iso(quotaWindow({ recurrence: 'MONTHLY', interval: 1 }, at('2025-12-31T23:59:59Z'))), [
      '2025-12-01T00:00:00.000Z',
      '2026-01-01T00:00:00.000Z',
    ]);
  });

  it('gives QUOTA one window for the life of the grant', () => {
    const granted = at('2025-01-01T00:00:00Z');
    const expires = at('2026-01-01T00:00:00Z');
    assert.deepEqual(quotaWindow({ recurrence: 'QUOTA', interval: 1 }, now, granted, expires), { start: granted, end: expires });
    assert.deepEqual(quotaWindow({ recurrence: 'QUOTA', interval: 1 }, now, granted), { start: granted, end: NEVER });
  });
});
