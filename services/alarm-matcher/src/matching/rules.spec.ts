import assert from 'node:assert/strict';
import { storm, strike, rain, square } from '../test-support/fixtures.js';
import { lightningPasses, polygonsWatched, precipitationPasses, thunderstormPasses } from './rules.js';

describe('filter rules', () => {
  describe('lightning', () => {
    it('matches the type when one is set', () => {
      assert.equal(lightningPasses({ type: 'FLASH_CLOUD_TO_GROUND' }, strike(30, 40)), true);
      assert.equal(lightningPasses({ type: 'FLASH_IN_CLOUD' }, strike(30, 40)), false);
      assert.equal(lightningPasses({}, strike(30, 40, { type: 'FLASH_IN_CLOUD' })), true);
    });

    it('compares peak current by magnitude in amperes, either polarity, threshold included', () => {
      const filter = { peakCurrentA: -12_500 };
      assert.equal(lightningPasses(filter, strike(30, 40, { peakCurrentA: -12_500 })), true, 'exactly at the threshold');
      assert.equal(lightningPasses(filter, strike(30, 40, { peakCurrentA: -12_499 })), false, 'just below');
      assert.equal(lightningPasses(filter, strike(30, 40, { peakCurrentA: 12_501 })), true, 'positive polarity above');
      assert.equal(lightningPasses(filter, strike(30, 40, { peakCurrentA: 12_000 })), false, 'positive polarity below');
    });

    it('limits in-cloud discharges to at most the height, and leaves cloud-to-ground alone', () => {
      const filter = { inCloudHeightM: 4_500 };
      assert.equal(lightningPasses(filter, strike(30, 40, { type: 'FLASH_IN_CLOUD', inCloudHeightM: 4_500 })), true);
      assert.equal(lightningPasses(filter, strike(30, 40, { type: 'FLASH_IN_CLOUD', inCloudHeightM: 4_501 })), false);
      assert.equal(lightningPasses(filter, strike(30, 40, { type: 'FLASH_CLOUD_TO_GROUND' })), true);
      assert.equal(lightningPasses(filter, strike(30, 40, { type: 'FLASH_IN_CLOUD' })), true, 'unknown height is not excluded');
    });
  });

  describe('thunderstorm', () => {
    const s = storm(square(30, 40, 0.1), square(30, 40, 0.3), { severity: 'MEDIUM', speedKmh: 20 });

    it('watches both polygons when neither flag is set, else only the flags set true', () => {
      assert.deepEqual(polygonsWatched({}), { cell: true, threat: true });
      assert.deepEqual(polygonsWatched({ intersectsCellPolygon: true }), { cell: true, threat: false });
      assert.deepEqual(polygonsWatched({ intersectsAffectedPolygon: true, intersectsCellPolygon: false }), { cell: false, threat: true });
      assert.deepEqual(polygonsWatched({ intersectsAffectedPolygon: false, intersectsCellPolygon: false }), { cell: false, threat: false });
    });

    it('needs a watched polygon to touch the area', () => {
      assert.equal(thunderstormPasses({ intersectsCellPolygon: true }, s, { cell: false, threat: true }), false);
      assert.equal(thunderstormPasses({ intersectsAffectedPolygon: true }, s, { cell: false, threat: true }), true);
      assert.equal(thunderstormPasses({}, s, { cell: false, threat: true }), true);
      assert.equal(thunderstormPasses({}, s, { cell: false, threat: false }), false);
    });

    it('passes a severity at or above the threshold only', () => {
      const hits = { cell: true, threat: true };
      assert.equal(thunderstormPasses({ severityThreshold: 'MEDIUM' }, s, hits), true);
      assert.equal(thunderstormPasses({ severityThreshold: 'HIGH' }, s, hits), false);
      assert.equal(thunderstormPasses({ severityThreshold: 'LOW' }, s, hits), true);
    });

    it('passes a speed at or above the threshold (km/h) only', () => {
      const hits = { cell: true, threat: true };
      assert.equal(thunderstormPasses({ speedThresholdKmh: 20 }, s, hits), true);
      assert.equal(thunderstormPasses({ speedThresholdKmh: 20.1 }, s, hits), false);
    });
  });

  describe('precipitation', () => {
    it('matches listed intensities, or any with an empty list', () => {
      const r = rain(square(30, 40, 0.1), { intensity: 'HEAVY' });
      assert.equal(precipitationPasses({ intensities: ['HEAVY', 'EXTREME'] }, r), true);
      assert.equal(precipitationPasses({ intensities: ['LIGHT', 'MODERATE'] }, r), false);
      assert.equal(precipitationPasses({ intensities: [] }, r), true);
    });
  });
});
