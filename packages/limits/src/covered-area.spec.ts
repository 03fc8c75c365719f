import assert from 'node:assert/strict';
import { API_LIMITS } from './api-limits.js';
import { areaText, COVERED_AREA, FEED_AREA, inArea, TURKEY_EXTENT, type AreaBox } from './covered-area.js';

const contains = (outer: AreaBox, inner: AreaBox): boolean =>
  outer.minLng <= inner.minLng && outer.minLat <= inner.minLat && outer.maxLng >= inner.maxLng && outer.maxLat >= inner.maxLat;

describe('covered area', () => {
  it('nests: Turkey inside the covered area, the covered area inside the feed area', () => {
    assert.ok(contains(COVERED_AREA, TURKEY_EXTENT));
    assert.ok(contains(FEED_AREA, COVERED_AREA), 'ingest would drop weather the matcher could match');
  });

  it('covers the places it is for, and not its neighbours', () => {
    assert.ok(inArea(COVERED_AREA, 28.9795, 41.0151), 'İstanbul');
    assert.ok(inArea(COVERED_AREA, 44.0, 39.9), 'Iğdır');
    assert.ok(inArea(COVERED_AREA, 33.36, 35.19), 'Lefkoşa');
    assert.equal(inArea(COVERED_AREA, 23.72, 37.98), false, 'Athens');
    assert.equal(inArea(COVERED_AREA, 49.87, 40.41), false, 'Baku');
  });

  it('counts the edges in', () => {
    assert.ok(inArea(COVERED_AREA, COVERED_AREA.minLng, COVERED_AREA.maxLat));
    assert.equal(inArea(COVERED_AREA, COVERED_AREA.maxLng + 1e-9, 40), false);
  });

  it('spells a box the way the config variables take it', () => {
    assert.equal(areaText(FEED_AREA), '23,32,48,45');
  });

  it('keeps the point alarm radius within the geometry crop', () => {
    assert.ok(API_LIMITS.pointRadiusM.max <= API_LIMITS.geometryRadiusMaxM);
  });
});
