import assert from 'node:assert/strict';
import { geohash, geohashBounds } from './geohash.js';

describe('geohash', () => {
  it('matches the published reference value', () => {
    // The example of the original geohash.org description: 57.64911, 10.40744 -> u4pruydqqvj.
    assert.equal(geohash(57.64911, 10.40744, 11), 'u4pruydqqvj');
  });

  it('gives Istanbul and Ankara different precision-3 cells', () => {
    assert.equal(geohash(41.0082, 28.9784, 3), 'sxk');
    assert.equal(geohash(39.9334, 32.8597, 3), 'sxp');
  });

  it('decodes to a cell that contains the point', () => {
    const box = geohashBounds(geohash(39.9334, 32.8597, 3));
    assert.ok(box.minLat <= 39.9334 && 39.9334 <= box.maxLat);
    assert.ok(box.minLng <= 32.8597 && 32.8597 <= box.maxLng);
    assert.equal(box.maxLng - box.minLng, 1.40625);
  });

  it('refuses text that is not a geohash', () => {
    assert.throws(() => geohashBounds('sxa'), /not a geohash/);
  });
});
