import assert from 'node:assert/strict';
import { ApiError } from '@stormhook/errors';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import type { geoV1 } from '@stormhook/proto';
import { GeoResolutionCache, type AreaLookupPort, type ResolvePointPort } from './geo-resolution-cache.js';

const ring = (lat: number, lng: number) => ({ polygons: [{ exterior: { points: [{ lat, lng }] }, holes: [] }] });
const ISTANBUL = { id: 34, name: 'İstanbul', countryCode: 'TUR', geometry: ring(41.2, 28.9) };

class FakeGeo implements ResolvePointPort, AreaLookupPort {
  async getCity(request: geoV1.GetAreaRequest): Promise<geoV1.City> {
    this.calls++;
    if (Number(request.id) !== 34) throw new GrpcError(GrpcStatus.NOT_FOUND, 'no such city');
    return ISTANBUL;
  }
  async getDistrict(request: geoV1.GetAreaRequest): Promise<geoV1.District> {
    this.calls++;
    return { id: request.id, name: 'Kadıköy', geometry: ring(40.99, 29.03), city: ISTANBUL };
  }
  async getNeighbourhood(request: geoV1.GetAreaRequest): Promise<geoV1.Neighbourhood> {
    this.calls++;
    return { id: request.id, name: 'Fikirtepe', geometry: ring(40.995, 29.05), district: { id: 1421, name: 'Kadıköy', geometry: null, city: ISTANBUL } };
  }
  calls = 0;
  down = false;
  async resolvePoint(request: geoV1.ResolvePointRequest): Promise<geoV1.ResolvePointResponse> {
    this.calls++;
    if (this.down) throw new Error('geo down');
    const inAnkara = request.point?.lat === 39.92;
    return inAnkara
      ? { countryCode: 'TUR', city: { id: 6, name: 'Ankara', nearest: false, distanceM: 0 }, district: null, neighbourhood: null }
      : { countryCode: '', city: null, district: null, neighbourhood: null };
  }
}

describe('GeoResolutionCache', () => {
  it('resolves a repeated point once, places outside every country included', async () => {
    const geo = new FakeGeo();
    const cache = new GeoResolutionCache(geo);
    for (let i = 0; i < 50; i++) {
      assert.deepEqual(await cache.resolve({ lat: 39.92, lng: 32.85 }), { country: 'TUR', region: 'Ankara' });
      assert.equal(await cache.resolve({ lat: 0, lng: 0 }), undefined);
    }
    assert.equal(geo.calls, 2);
  });

  it('keeps at most maxEntries points, dropping the least recently used', async () => {
    const geo = new FakeGeo();
    const cache = new GeoResolutionCache(geo, { maxEntries: 2 });
    await cache.resolve({ lat: 1, lng: 1 });
    await cache.resolve({ lat: 2, lng: 2 });
    await cache.resolve({ lat: 1, lng: 1 }); // used again: now the newest
    await cache.resolve({ lat: 3, lng: 3 }); // pushes out 2,2
    assert.equal(cache.size, 2);
    const calls = geo.calls;
    await cache.resolve({ lat: 1, lng: 1 });
    assert.equal(geo.calls, calls);
    await cache.resolve({ lat: 2, lng: 2 });
    assert.equal(geo.calls, calls + 1);
  });

  it('answers 503 when geo cannot answer, and asks again next time', async () => {
    const geo = new FakeGeo();
    geo.down = true;
    const cache = new GeoResolutionCache(geo);
    await assert.rejects(cache.resolve({ lat: 39.92, lng: 32.85 }), (error: unknown) => error instanceof ApiError && error.status === 503);
    geo.down = false;
    assert.equal((await cache.resolve({ lat: 39.92, lng: 32.85 }))?.region, 'Ankara');
  });

  it('resolves a city, district or neighbourhood id to its country and city, with a vertex for the message; unknown ids to nothing', async () => {
    const geo = new FakeGeo();
    const cache = new GeoResolutionCache(geo);
    assert.deepEqual(await cache.resolveArea({ level: 'district', id: 1421 }), {
      area: { country: 'TUR', region: 'İstanbul' },
      point: { lat: 40.99, lng: 29.03 },
    });
    assert.deepEqual(await cache.resolveArea({ level: 'neighbourhood', id: 7 }), {
      area: { country: 'TUR', region: 'İstanbul' },
      point: { lat: 40.995, lng: 29.05 },
    });
    assert.deepEqual((await cache.resolveArea({ level: 'city', id: 34 }))?.area, { country: 'TUR', region: 'İstanbul' });
    assert.equal(await cache.resolveArea({ level: 'city', id: 99 }), undefined);
    const calls = geo.calls;
    await cache.resolveArea({ level: 'district', id: 1421 });
    assert.equal(geo.calls, calls, 'cached');
  });
});
