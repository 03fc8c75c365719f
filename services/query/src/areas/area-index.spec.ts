import assert from 'node:assert/strict';
import type { MultiPolygon } from '@stormhook/geometry';
import { rectangleRing } from '@stormhook/geometry/testing';
import { localDate, localDateTime, localMidnight, timezoneAt } from '../forecast/timezone.js';
import { bboxOfParts, flattenMultiPolygon } from '@stormhook/geometry';
import { AreaIndex, type SubscriptionArea } from '@stormhook/access';

const box = rectangleRing;

function area(key: string, name: string, rings: MultiPolygon): SubscriptionArea {
  const parts = flattenMultiPolygon(rings);
  return { key, countryCode: key.split(':')[0]!, name, parts, bbox: bboxOfParts(parts) };
}

const areas = new AreaIndex([
  area('TUR:34', 'İstanbul', [{ exterior: box(27.9, 40.8, 29.9, 41.6), holes: [] }]),
  area('TUR:6', 'Ankara', [{ exterior: box(31.0, 38.7, 34.0, 40.7), holes: [] }]),
  area('CTR:1', 'Lefkoşa', [{ exterior: box(32.7, 35.15, 34.6, 35.7), holes: [] }]),
]);

describe('subscription areas', () => {
  it('resolves region names without case or diacritics, and whole countries', () => {
    assert.deepEqual([...areas.resolve([{ countryCode: 'TUR', region: 'istanbul' }]).keys], ['TUR:34']);
    assert.deepEqual([...areas.resolve([{ countryCode: 'TUR', region: '' }]).keys].sort(), ['TUR:34', 'TUR:6']);
    assert.deepEqual(areas.resolve([{ countryCode: 'TUR', region: 'Atlantis' }]), { keys: new Set(), unknown: ['TUR/Atlantis'] });
  });

  it('answers a repeated geography alike, and a different one (even by region only) apart', () => {
    const first = areas.resolve([{ countryCode: 'TUR', region: 'İstanbul' }]);
    assert.deepEqual([...areas.resolve([{ countryCode: 'TUR', region: 'İstanbul' }]).keys], [...first.keys]);
    assert.deepEqual([...areas.resolve([{ countryCode: 'TUR', region: 'Ankara' }]).keys], ['TUR:6']);
    assert.deepEqual(
      [
        ...areas.resolve([
          { countryCode: 'TUR', region: '' },
          { countryCode: 'CTR', region: '' },
        ]).keys,
      ].sort(),
      ['CTR:1', 'TUR:34', 'TUR:6'],
    );
  });

  it('tags a geometry with every area it touches, not those it misses', () => {
    const spanning = flattenMultiPolygon([{ exterior: box(29.5, 40.5, 31.5, 41.0), holes: [] }]);
    assert.deepEqual(areas.touched(spanning).sort(), ['TUR:34', 'TUR:6']);
    const sea = flattenMultiPolygon([{ exterior: box(30.0, 42.0, 30.5, 42.5), holes: [] }]);
    assert.deepEqual(areas.touched(sea), []);
    // A ring around Ankara with the whole province in its hole does not touch it.
    const donut = flattenMultiPolygon([{ exterior: box(30.5, 38.0, 34.5, 41.0), holes: [[...box(30.6, 38.1, 34.4, 40.9)].reverse()] }]);
    assert.deepEqual(areas.touched(donut), []);
  });
});

describe('timezone of a point (offline rules)', () => {
  it('names Europe/Istanbul for Turkey, Asia/Famagusta for Northern Cyprus and Asia/Nicosia for the south of the island', () => {
    assert.equal(timezoneAt(28.97, 41.01, areas), 'Europe/Istanbul');
    assert.equal(timezoneAt(33.36, 35.18, areas), 'Asia/Famagusta');
    assert.equal(timezoneAt(33.04, 34.68, areas), 'Asia/Nicosia');
    assert.equal(timezoneAt(30.7, 36.7), 'Europe/Istanbul', "without boundaries: inside Turkey's box");
    assert.equal(timezoneAt(13.4, 52.5), 'Etc/GMT-1', 'elsewhere: the nautical zone of the longitude');
  });

  it('writes local times with their offset and finds local midnights', () => {
    const t = Date.UTC(2026, 10, 21, 21, 30);
    assert.equal(localDateTime(t, 'Europe/Istanbul'), '2026-11-22T00:30+03:00');
    assert.equal(localDate(t, 'Europe/Istanbul'), '2026-11-22');
    assert.equal(localMidnight(t, 'Europe/Istanbul'), Date.UTC(2026, 10, 21, 21));
    assert.equal(localMidnight(t, 'Europe/Istanbul', 1), Date.UTC(2026, 10, 22, 21));
    // A zone with summer time: the day after the March change is 23 hours long in Nicosia.
    const spring = Date.UTC(2026, 2, 29, 12);
    assert.equal(localMidnight(spring, 'Asia/Nicosia', 1) - localMidnight(spring, 'Asia/Nicosia'), 23 * 3_600_000);
  });
});
