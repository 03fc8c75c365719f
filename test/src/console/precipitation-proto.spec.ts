import assert from 'node:assert/strict';
import { base64Bytes, decodePrecipitationFeatures } from '@stormhook/console/map/precipitation-proto';
import { queryV1 } from '@stormhook/proto';

describe("the console's reader of POST /v1/precipitations/geometry", () => {
  it('decodes what the product encodes: ids, properties and every ring of every polygon', () => {
    const outer = [
      { lng: 32.8, lat: 39.9 },
      { lng: 32.92, lat: 39.9 },
      { lng: 32.92, lat: 39.97 },
      { lng: 32.8, lat: 39.9 },
    ];
    const hole = [
      { lng: 32.85, lat: 39.92 },
      { lng: 32.86, lat: 39.92 },
      { lng: 32.86, lat: 39.93 },
      { lng: 32.85, lat: 39.92 },
    ];
    const second = [
      { lng: 29.0, lat: 41.0 },
      { lng: 29.1, lat: 41.0 },
      { lng: 29.1, lat: 41.1 },
      { lng: 29.0, lat: 41.0 },
    ];
    const bytes = queryV1.PrecipitationFeatureCollection.encode({
      features: [
        {
          id: 'prc_a',
          geometry: {
            type: 'GEOMETRY_TYPE_MULTI_POLYGON',
            multiPolygon: { polygons: [{ rings: [{ coordinates: outer }, { coordinates: hole }] }, { rings: [{ coordinates: second }] }] },
          },
          properties: { intensity: 'HEAVY', radarTimestamp: 1_795_788_000_000, forecast: false },
        },
        {
          id: 'prc_b',
          geometry: { type: 'GEOMETRY_TYPE_MULTI_POLYGON', multiPolygon: { polygons: [] } },
          properties: { intensity: 'LIGHT', radarTimestamp: 1_795_788_300_000, forecast: true },
        },
      ],
    });
    const features = decodePrecipitationFeatures(base64Bytes(Buffer.from(bytes).toString('base64')));
    const ring = (points: { lng: number; lat: number }[]) => points.map((p) => [p.lng, p.lat]);
    assert.deepEqual(features, [
      { id: 'prc_a', intensity: 'HEAVY', radarTimestamp: 1_795_788_000_000, forecast: false, polygons: [[ring(outer), ring(hole)], [ring(second)]] },
      { id: 'prc_b', intensity: 'LIGHT', radarTimestamp: 1_795_788_300_000, forecast: true, polygons: [] },
    ]);
  });

  it('refuses bytes that end inside a field', () => {
    const bytes = queryV1.PrecipitationFeatureCollection.encode({
      features: [{ id: 'prc_a', properties: { intensity: 'HEAVY', radarTimestamp: 1, forecast: false } }],
    });
    assert.throws(() => decodePrecipitationFeatures(bytes.subarray(0, bytes.length - 3)), /truncated/);
  });
});
