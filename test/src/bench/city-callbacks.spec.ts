import assert from 'node:assert/strict';
import { bboxOfMultiPolygon, type MultiPolygon } from '@stormhook/geometry';
import { Grid, PreparedCircle, PreparedPolygon } from '@stormhook/alarm-matcher';
import { compare, ExpectedCallbacks, lightningKey, ReceivedCallbacks, trackedKey } from './city-callbacks.js';
import type { TrackedRevision } from './city-storm-system.js';

const square = (lng: number, lat: number, half: number): MultiPolygon => [
  {
    exterior: [
      [lng - half, lat - half],
      [lng + half, lat - half],
      [lng + half, lat + half],
      [lng - half, lat + half],
      [lng - half, lat - half],
    ],
    holes: [],
  },
];

function rain(version: number, lng: number, intensity: TrackedRevision['intensity'] = 'HEAVY'): TrackedRevision {
  const polygon = square(lng, 41, 0.06);
  return {
    kind: 'PRECIPITATION',
    sourceId: 'rain-1',
    version,
    atS: version,
    recordId: `rain-1@${version}`,
    polygon,
    box: bboxOfMultiPolygon(polygon),
    intensity,
  };
}

describe('city-storm expected callbacks', () => {
  // A 5 km circle at (29.0, 41.0) and a district-like square east of it, 29.15-29.25.
  const circle = new PreparedCircle([29.0, 41.0], 5_000);
  const district = new PreparedPolygon(square(29.2, 41.0, 0.05), new Grid());
  const areas = [
    {
      shape: circle,
      registrations: [
        { registrationId: 'any-rain', filter: { precipitation: { intensities: [] }, lightning: {} } },
        { registrationId: 'strong-strikes', filter: { lightning: { peakCurrentA: 30_000 } } },
      ],
    },
    { shape: district, registrations: [{ registrationId: 'heavy-rain', filter: { precipitation: { intensities: ['HEAVY' as const] } } }] },
  ];

  it('expects a START per strike inside a lightning alarm whose filter it passes', () => {
    const expected = new ExpectedCallbacks(areas);
    assert.equal(expected.addStrike('s1', { lng: 29.01, lat: 41.0 }, { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -24_000 }), 1);
    assert.equal(expected.addStrike('s2', { lng: 29.2, lat: 41.0 }, { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -24_000 }), 0);
    assert.equal(expected.addStrike('s3', { lng: 29.0, lat: 41.0 }, { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -40_000 }), 2);
    assert.deepEqual(
      [...expected.causes.keys()].sort(),
      [lightningKey('s1', 'any-rain'), lightningKey('s3', 'any-rain'), lightningKey('s3', 'strong-strikes')].sort(),
    );
  });

  it('follows a moving rain area through START and END per registration, filter by intensity', () => {
    const expected = new ExpectedCallbacks(areas);
    // West of both, over the circle, over both, over the district only, gone east.
    expected.addRevisions([rain(1, 28.7), rain(2, 29.0), rain(3, 29.1), rain(4, 29.25), rain(5, 30.5)]);
    assert.deepEqual(expected.causes.get(trackedKey('P', 'rain-1', 'any-rain', 'START')), ['rain-1@2']);
    assert.deepEqual(expected.causes.get(trackedKey('P', 'rain-1', 'any-rain', 'END')), ['rain-1@4']);
    assert.deepEqual(expected.causes.get(trackedKey('P', 'rain-1', 'heavy-rain', 'START')), ['rain-1@3']);
    assert.deepEqual(expected.causes.get(trackedKey('P', 'rain-1', 'heavy-rain', 'END')), ['rain-1@5']);
    assert.equal(expected.total, 4);
  });

  it('refuses a storm whose last revision leaves an END to the expiry', () => {
    assert.throws(() => new ExpectedCallbacks(areas).addRevisions([rain(1, 29.0)]), /still touches 1 registrations/);
  });

  it('pairs what arrived with what was expected, counting repeats of one notification as duplicates', () => {
    const expected = new ExpectedCallbacks(areas);
    expected.addStrike('s1', { lng: 29.0, lat: 41.0 }, { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -40_000 });
    const received = new ReceivedCallbacks();
    const body = (id: string, registrationId: string) => JSON.stringify({ id, stage: 'START', strikeId: 's1', eventId: 'ltg_s1', registrationId });
    received.take(body('ntf_a', 'any-rain'), 1_500);
    received.take(body('ntf_a', 'any-rain'), 1_900);
    received.take(body('ntf_x', 'nobody'), 1_600);
    const result = compare(expected, received, new Map([['s1', 1_000]]));
    assert.equal(result.expected, 2);
    assert.equal(result.delivered, 1);
    assert.equal(result.missing, 1);
    assert.equal(result.unexpected, 1);
    assert.equal(received.duplicates, 1);
    assert.deepEqual(result.timed, [{ causeAtMs: 1_000, latencyMs: 500 }]);
    assert.deepEqual(result.missingKeys, [lightningKey('s1', 'strong-strikes')]);
  });
});
