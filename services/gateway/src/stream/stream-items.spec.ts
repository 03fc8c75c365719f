import assert from 'node:assert/strict';
import { AreaIndex, type SubscriptionArea } from '@stormhook/access';
import { bboxOfParts, distanceM, flattenMultiPolygon, type MultiPolygon } from '@stormhook/geometry';
import { rectangleRing } from '@stormhook/geometry/testing';
import type { weatherV1 } from '@stormhook/proto';
import { thunderstormJson } from '../json/weather-json.js';
import type { LightningEventData, PrecipitationEventData, ThunderstormEventData } from '@stormhook/webhooks/stream-events';
import { lightningItem, precipitationItem, thunderstormItem } from './stream-items.js';
import { admits, type StreamItem, type StreamSelection } from './stream-selection.js';

function area(key: string, name: string, rings: MultiPolygon): SubscriptionArea {
  const parts = flattenMultiPolygon(rings);
  return { key, countryCode: 'TUR', name, parts, bbox: bboxOfParts(parts) };
}

// Rough boxes of the two provinces, far enough apart to tell them apart.
const areas = new AreaIndex([
  area('TUR:34', 'İstanbul', [{ exterior: rectangleRing(27.9, 40.8, 29.9, 41.6), holes: [] }]),
  area('TUR:6', 'Ankara', [{ exterior: rectangleRing(31.0, 38.7, 34.0, 40.7), holes: [] }]),
]);
const ankaraKeys = areas.resolve([{ countryCode: 'TUR', region: 'Ankara' }]).keys;
const turkeyKeys = areas.resolve([{ countryCode: 'TUR', region: '' }]).keys;

const selection = (keys: ReadonlySet<string>, extra: Partial<StreamSelection> = {}): StreamSelection => ({
  kinds: new Set(['lightning', 'thunderstorm', 'precipitation']),
  bbox: undefined,
  areas: { all: false, keys },
  ...extra,
});
const ankaraOnly = selection(ankaraKeys);
const allTurkey = selection(turkeyKeys);

const revision = { revision: 2, sourceVersion: 0, sourceUpdatedEpochMs: 1_795_788_000_000, ingestedEpochMs: 1_795_788_001_000 };

function strike(id: string, lng: number, lat: number): weatherV1.LightningEvent {
  return {
    eventId: id,
    sourceEventId: `src-${id}`,
    revision,
    areaKey: 'sxk',
    timeEpochMs: 1_795_788_000_500,
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    location: { lng, lat },
    peakCurrentAmperes: -24_500,
    multiplicity: 2,
  };
}

const ring = (minLng: number, minLat: number, maxLng: number, maxLat: number) => ({
  points: rectangleRing(minLng, minLat, maxLng, maxLat).map(([lng, lat]) => ({ lng, lat })),
});

function storm(id: string, cell: [number, number, number, number], threat: [number, number, number, number], speedKmh = 0): weatherV1.ThunderstormEvent {
  const [a, b, c, d] = cell;
  return {
    eventId: id,
    sourceEventId: `TRK-${id}`,
    revision,
    areaKey: 'sxk',
    insertedEpochMs: 1_795_787_000_000,
    startEpochMs: 1_795_787_000_000,
    endEpochMs: 1_795_789_000_000,
    severity: 'THUNDERSTORM_SEVERITY_HIGH',
    threshold: 3,
    meta: { country: 'TUR', state: '', city: '', speedKmh },
    cell: {
      areaKm2: 120,
      speedKmh,
      directionDeg: 90,
      flashRates: { inCloud: 10, cloudToGround: 4, total: 14 },
      centroid: { lng: (a + c) / 2, lat: (b + d) / 2 },
      polygon: { exterior: ring(a, b, c, d), holes: [] },
    },
    threatPolygon: { exterior: ring(...threat), holes: [] },
    bbox: null,
  };
}

function rain(id: string, box: [number, number, number, number]): weatherV1.PrecipitationEvent {
  return {
    eventId: id,
    sourceEventId: id,
    revision,
    areaKey: 'sxk',
    radarTimestampEpochMs: 1_795_788_000_000,
    forecast: false,
    intensity: 'PRECIPITATION_INTENSITY_HEAVY',
    rainRateMmPerH: 12.5,
    geometry: { polygons: [{ exterior: ring(...box), holes: [] }] },
    bbox: null,
    centroid: { lng: (box[0] + box[2]) / 2, lat: (box[1] + box[3]) / 2 },
    areaKm2: 80,
    motion: { speedKmh: 30, directionDeg: 45 },
  };
}

const dataOf = <T>(item: StreamItem | undefined): T => JSON.parse(/^data: (.*)$/m.exec(item?.frame ?? '')?.[1] ?? 'null') as T;

describe('stream items and the plan-geography filter', () => {
  it('gives an Ankara-only plan its Ankara strike and not the İstanbul one; an all-Turkey plan both', () => {
    const ankara = lightningItem(strike('ltg_a', 32.85, 39.93), areas);
    const istanbul = lightningItem(strike('ltg_i', 29.0, 41.05), areas);
    assert.ok(ankara && istanbul);
    assert.deepEqual(ankara.areas, ['TUR:6']);
    assert.deepEqual(istanbul.areas, ['TUR:34']);
    assert.equal(admits(ankaraOnly, ankara), true);
    assert.equal(admits(ankaraOnly, istanbul), false);
    assert.equal(admits(allTurkey, ankara), true);
    assert.equal(admits(allTurkey, istanbul), true);
  });

  it('shows a storm whose threat area reaches into the plan, as the page lists it, and hides one that stays outside', () => {
    const inIstanbul = thunderstormItem(storm('tst_i', [28.8, 41.0, 29.1, 41.2], [28.8, 41.0, 29.5, 41.3]), areas);
    const headingToAnkara = thunderstormItem(storm('tst_x', [30.4, 39.8, 30.8, 40.0], [30.4, 39.8, 31.3, 40.1]), areas);
    assert.ok(inIstanbul && headingToAnkara);
    assert.equal(admits(ankaraOnly, inIstanbul), false);
    assert.equal(admits(ankaraOnly, headingToAnkara), true);
    assert.equal(admits(allTurkey, inIstanbul), true);
  });

  it('filters rain areas by the plan, and every kind by the kinds and box asked for', () => {
    const istanbulRain = precipitationItem(rain('prc_i', [28.9, 41.0, 29.2, 41.2]), areas);
    const ankaraRain = precipitationItem(rain('prc_a', [32.7, 39.8, 33.0, 40.0]), areas);
    const ankaraStrike = lightningItem(strike('ltg_a', 32.85, 39.93), areas);
    assert.ok(istanbulRain && ankaraRain && ankaraStrike);
    assert.equal(admits(ankaraOnly, istanbulRain), false);
    assert.equal(admits(ankaraOnly, ankaraRain), true);
    const lightningOnly = selection(turkeyKeys, { kinds: new Set(['lightning']) });
    assert.equal(admits(lightningOnly, ankaraRain), false);
    assert.equal(admits(lightningOnly, ankaraStrike), true);
    const boxAroundCankaya = selection(turkeyKeys, { bbox: { minLng: 32.8, minLat: 39.85, maxLng: 32.9, maxLat: 39.95 } });
    assert.equal(admits(boxAroundCankaya, ankaraStrike), true);
    assert.equal(admits(boxAroundCankaya, istanbulRain), false);
  });

  it('shows a plan without geography nothing, and tags nothing before the provinces are loaded', () => {
    const item = lightningItem(strike('ltg_a', 32.85, 39.93), areas);
    assert.ok(item);
    assert.equal(admits(selection(new Set()), item), false);
    const untagged = lightningItem(strike('ltg_a', 32.85, 39.93), undefined);
    assert.ok(untagged);
    assert.equal(admits(ankaraOnly, untagged), false);
    assert.equal(admits({ ...ankaraOnly, areas: { all: true } }, untagged), true);
  });

  it('sends a strike with the lightning callback field names, the id line eventId.revision', () => {
    const item = lightningItem(strike('ltg_a', 32.85, 39.93), areas);
    assert.match(item?.frame ?? '', /^event: lightning\nid: ltg_a\.2\ndata: \{.*\}\n\n$/);
    assert.deepEqual(dataOf<LightningEventData>(item), {
      eventId: 'ltg_a',
      strikeId: 'src-ltg_a',
      timeEpochMillis: 1_795_788_000_500,
      dischargeType: 'FLASH_CLOUD_TO_GROUND',
      latitude: 39.93,
      longitude: 32.85,
      peakCurrent: -24_500,
      inCloudHeight: null,
      multiplicity: { strokes: 2 },
      revision: 2,
    });
  });

  it('sends a storm as its page item plus motion and a path that moves the cell along it at its speed', () => {
    const event = storm('tst_m', [32.0, 39.8, 32.2, 40.0], [32.0, 39.8, 32.6, 40.0], 60);
    const data = dataOf<ThunderstormEventData>(thunderstormItem(event, areas));
    const { revision: rev, motion, predictedPath, ...item } = data;
    assert.deepEqual(item, JSON.parse(JSON.stringify(thunderstormJson(event))));
    assert.equal(rev, 2);
    assert.deepEqual(motion, { speedKmh: 60, towardDeg: 90, fromDeg: 270, source: 'FEED' });
    assert.ok(predictedPath);
    assert.deepEqual(
      predictedPath.points.map((p) => p.minutesAhead),
      [0, 10, 20, 30, 40, 50, 60],
    );
    const start = predictedPath.points[0]!;
    const end = predictedPath.points[6]!;
    assert.equal(start.epochMillis, revision.sourceUpdatedEpochMs);
    assert.equal(end.epochMillis, revision.sourceUpdatedEpochMs + 3_600_000);
    // 60 km/h towards the east for an hour: 60 km further east, on the same latitude.
    const moved = distanceM([start.centroid.lng, start.centroid.lat], [end.centroid.lng, end.centroid.lat]);
    assert.ok(Math.abs(moved - 60_000) < 50, `moved ${moved} m`);
    assert.ok(end.centroid.lng > start.centroid.lng && Math.abs(end.centroid.lat - start.centroid.lat) < 0.01);
    const shiftedFirst = predictedPath.polygonAtHorizon.exterior[0]!;
    assert.ok(Math.abs(shiftedFirst.lng - 32.0 - (end.centroid.lng - start.centroid.lng)) < 1e-9);
  });

  it('sends a storm without motion with null motion and path, and a rain area with its geometry', () => {
    const still = dataOf<ThunderstormEventData>(thunderstormItem(storm('tst_s', [32.0, 39.8, 32.2, 40.0], [32.0, 39.8, 32.2, 40.0]), areas));
    assert.equal(still.motion, null);
    assert.equal(still.predictedPath, null);
    const wet = dataOf<PrecipitationEventData>(precipitationItem(rain('prc_a', [32.7, 39.8, 33.0, 40.0]), areas));
    assert.equal(wet.intensity, 'HEAVY');
    assert.equal(wet.rainRate, 12.5);
    assert.equal(wet.geometry.polygons.length, 1);
    assert.deepEqual(wet.geometry.polygons[0]!.exterior[0], { lng: 32.7, lat: 39.8 });
    assert.deepEqual(wet.motion, { speedKmh: 30, towardDeg: 45, fromDeg: 225, source: 'FEED' });
  });
});
