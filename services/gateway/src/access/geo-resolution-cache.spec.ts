import assert from 'node:assert/strict';
import { ApiError } from '@stormhook/errors';
import type { geoV1 } from '@stormhook/proto';
import { GeoResolutionCache, type ResolvePointPort } from './geo-resolution-cache.js';

class FakeGeo implements ResolvePointPort {
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
});
