import assert from 'node:assert/strict';
import { AREA_WORDS } from './area-bits.js';
import { decodeEntries, encodeEntries, type IndexEntry } from './entry.js';
import { EventIndex } from './event-index.js';

function entry(id: string, time: number, overrides: Partial<IndexEntry> = {}): IndexEntry {
  return {
    eventId: id,
    revision: 1,
    time,
    startTime: time,
    rank: 3,
    flags: 0,
    bbox: { minLng: 32, minLat: 39, maxLng: 33, maxLat: 40 },
    areas: ['TUR:6'],
    ...overrides,
  };
}

/** A seeded generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('the in-memory event index', () => {
  it('pages newest first with the exact total, ties broken by event id, and agrees with a brute-force scan', () => {
    const rnd = random(7);
    const index = new EventIndex();
    const all: IndexEntry[] = [];
    for (let i = 0; i < 5000; i++) {
      // Out of order and with many equal times, as nowcasts and replays produce.
      const e = entry(`prc_${i}`, 1_000_000 + Math.floor(rnd() * 2000) * 1000, {
        rank: 1 + Math.floor(rnd() * 6),
        areas: rnd() < 0.5 ? ['TUR:6'] : ['TUR:34'],
      });
      all.push(e);
      index.apply(e);
    }
    const mask = index.areaBits.maskOf(['TUR:34'], new Uint32Array(AREA_WORDS), true);
    const from = 1_500_000;
    const to = 2_200_000;
    const expected = all
      .filter((e) => e.time >= from && e.time <= to && e.rank >= 4 && e.areas.includes('TUR:34'))
      .sort((a, b) => b.time - a.time || (a.eventId < b.eventId ? 1 : -1))
      .map((e) => e.eventId);
    const pageOf = (n: number) => index.page({ timeFrom: from, timeTo: to, minRank: 4, areaMask: mask }, n * 50, 50);
    assert.equal(pageOf(0).total, expected.length);
    const got = [0, 1, 2].flatMap((n) => pageOf(n).slots.map((s) => index.idAt(s)));
    assert.deepEqual(got, expected.slice(0, 150));
  });

  it('includes both window edges and nothing beyond them', () => {
    const index = new EventIndex();
    for (const t of [999, 1000, 1500, 2000, 2001]) index.apply(entry(`e${t}`, t));
    const { total, slots } = index.page({ timeFrom: 1000, timeTo: 2000 }, 0, 10);
    assert.equal(total, 3);
    assert.deepEqual(
      slots.map((s) => index.idAt(s)),
      ['e2000', 'e1500', 'e1000'],
    );
  });

  it('keeps the highest revision: a newer one moves the event, an older or equal one is ignored', () => {
    const index = new EventIndex();
    assert.equal(index.apply(entry('a', 100)), 'inserted');
    assert.equal(index.apply(entry('a', 500, { revision: 2, rank: 6 })), 'replaced');
    assert.equal(index.apply(entry('a', 100, { revision: 1 })), 'stale');
    assert.equal(index.apply(entry('a', 500, { revision: 2 })), 'stale');
    assert.equal(index.size, 1);
    assert.equal(index.page({ timeFrom: 0, timeTo: 200 }, 0, 10).total, 0);
    assert.equal(index.get('a')?.rank, 6);
  });

  it('finds storms whose lifetime overlaps the window, whatever their end', () => {
    const index = new EventIndex();
    index.apply(entry('before', 900, { startTime: 100 }));
    index.apply(entry('spanning', 5000, { startTime: 500 })); // starts before, ends after the window
    index.apply(entry('inside', 1500, { startTime: 1200 }));
    index.apply(entry('after', 3000, { startTime: 2100 }));
    const { slots } = index.page({ timeFrom: 1000, timeTo: 2000, startAtMost: 2000 }, 0, 10);
    assert.deepEqual(
      slots.map((s) => index.idAt(s)),
      ['spanning', 'inside'],
    );
  });

  it('purges entries older than the cutoff and reuses their slots', () => {
    const index = new EventIndex();
    for (let i = 0; i < 10; i++) index.apply(entry(`e${i}`, i * 100));
    assert.equal(index.purgeBefore(500), 5);
    assert.equal(index.size, 5);
    assert.equal(index.get('e1'), undefined);
    index.apply(entry('new', 2000));
    assert.equal(index.page({ timeFrom: 0, timeTo: 10_000 }, 0, 100).total, 6);
  });

  it('encodes and decodes blocks of entries losslessly', () => {
    const entries = [
      entry('prc_ä', 1.5e12, { areas: ['TUR:6', 'CTR:1'], flags: 1, rank: 6, revision: 7 }),
      entry('tst_x', 2e12, { startTime: 1.9e12, areas: [] }),
    ];
    const back: IndexEntry[] = [];
    decodeEntries(encodeEntries(entries), (e) => back.push(e));
    assert.deepEqual(back, entries);
  });
});
