import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { areaHandlers, createApp, setAuthState } from '@stormhook/gateway';
import * as geo from '@stormhook/geo';
import { createClient, GrpcError, GrpcStatus, type GrpcClient, testInternalTokens, tokenOfRequestPrincipal, untrustedTokens } from '@stormhook/grpc';
import { createLogger } from '@stormhook/logger';
import { geoV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { testInfra, uniqueName, testKafkaEnv } from '@stormhook/testing';

interface Point {
  lng: number;
  lat: number;
}
interface PolygonJson {
  exterior: Point[];
  holes: Point[][];
}

const closed = (ring: Point[]) => ring.length >= 4 && ring[0]!.lng === ring.at(-1)!.lng && ring[0]!.lat === ring.at(-1)!.lat;

/**
 * The boundary endpoints (interface.md 4.9 - 4.12) over the real geo service, which imports the
 * shared boundary data into a fresh database at start. Authentication is the identity issue's and is
 * tested there; these tests hold the HTTP contract of the areas themselves.
 */
describe('administrative areas through the gateway (real geo service and database)', function () {
  this.timeout(120_000);
  const logger = createLogger({ service: 'geo-it', level: 'silent' });
  let service: RunningGrpcService;
  let client: GrpcClient<typeof geoV1.GeoService>;
  let server: Server;
  let base: string;
  const get = async (path: string) => {
    const response = await fetch(`${base}${path}`);
    return { status: response.status, headers: response.headers, body: (await response.json()) as any };
  };

  before(async function () {
    const config = geo.loadConfig({
      ...testKafkaEnv(testInfra()),
      MONGO_URL: testInfra().mongoUrl,
      ...testInfra().internalKeys,
      STORMHOOK_DB_PREFIX: uniqueName('geo').replace(/-/g, '_'),
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
      LOG_LEVEL: 'silent',
    });
    service = await geo.start(config, { logger });
    if ((await service.platform.mongo.db.collection('areas').countDocuments()) === 0) {
      this.skip(); // no ../shared/data/geo beside the checkout: nothing to serve
    }
    client = createClient(geoV1.GeoService, `127.0.0.1:${service.port}`, {
      deadlineMs: 10_000,
      internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'geo'),
    });
    const app = createApp({
      logger,
      health: { check: async () => ({ status: 'up', components: {} }) },
      handlers: areaHandlers({ geo: client, attribution: 'test attribution' }),
      // Stands in for the access guards: an operator, whom no plan geography narrows (the city lists
      // answer only what the caller's plan covers; that is tested with the guards in test/src/alarms).
      guards: (operation) =>
        operation.authenticated
          ? [
              (req, _res, next) => {
                setAuthState(req, { principal: { userId: 'operator', accountId: '', role: 'ADMIN', username: 'operator@example.com', via: 'access-token' } });
                next();
              },
            ]
          : [],
    });
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    client?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await service?.platform.mongo.db.dropDatabase();
    await service?.stop();
  });

  it('4.9 lists the 81 cities of Turkey in ring form, with attribution', async () => {
    const { status, headers, body } = await get('/v1/alarms/geometries/cities');
    assert.equal(status, 200);
    assert.equal(headers.get('x-data-attribution'), 'test attribution');
    assert.equal(body.length, 81);
    const istanbul = body.find((c: { id: number }) => c.id === 34);
    assert.equal(istanbul.name, 'İstanbul');
    assert.equal(istanbul.licensePlateCode, 34);
    assert.ok(closed(istanbul.polygon.exterior));
    assert.equal(istanbul.geometry, undefined, 'the ring form carries polygon, not geometry');
  });

  it('4.12 lists the cities of TUR and CTR in multi form, licensePlateCode null for CTR', async () => {
    const tur = await get('/v1/alarms/forecasts/TUR/cities');
    assert.equal(tur.status, 200);
    assert.equal(tur.body.length, 81);
    for (const city of tur.body)
      assert.ok(
        city.geometry.polygons.every((p: PolygonJson) => closed(p.exterior)),
        city.name,
      );
    const ctr = await get('/v1/alarms/forecasts/CTR/cities');
    assert.equal(ctr.status, 200);
    assert.equal(ctr.body.length, 1);
    assert.equal(ctr.body[0].licensePlateCode, null);
  });

  it('4.12 rejects an unsupported country with a 400 naming the supported values', async () => {
    const { status, body } = await get('/v1/alarms/forecasts/GRC/cities');
    assert.equal(status, 400);
    assert.match(body.message, /countryCode/);
    assert.match(JSON.stringify(body), /TUR/);
    assert.match(JSON.stringify(body), /CTR/);
  });

  it('4.11 returns Kadıköy with İstanbul, multi form', async () => {
    const { status, body } = await get('/v1/alarms/forecasts/district/1421');
    assert.equal(status, 200);
    assert.equal(body.name, 'Kadıköy');
    assert.equal(body.city.id, 34);
    assert.ok(body.geometry.polygons.length >= 1);
    assert.ok(body.city.geometry.polygons.length >= 1);
  });

  it('4.10 returns a Kadıköy neighbourhood with its district and city, ring form', async () => {
    const { status, body } = await get('/v1/alarms/geometries/neighborhood/1444830823');
    assert.equal(status, 200);
    assert.equal(body.name, 'Göztepe');
    assert.equal(body.district.id, 1421);
    assert.equal(body.district.city.id, 34);
    assert.ok(closed(body.polygon.exterior));
    assert.ok(closed(body.district.polygon.exterior));
  });

  it('locates a point: the city, district and neighbourhood holding it, null for a level with none there', async () => {
    const post = async (body: unknown) => {
      const response = await fetch(`${base}/v1/alarms/geometries/locate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, headers: response.headers, body: (await response.json()) as any };
    };
    // Inside the Göztepe neighbourhood polygon of Kadıköy: a point on its own outline's first edge would
    // do, but its centre is what a click there means.
    const goztepe = (await get('/v1/alarms/geometries/neighborhood/1444830823')).body.polygon.exterior as { lng: number; lat: number }[];
    const centre = { lng: goztepe.reduce((s, p) => s + p.lng, 0) / goztepe.length, lat: goztepe.reduce((s, p) => s + p.lat, 0) / goztepe.length };
    const kadikoy = await post({ point: centre });
    assert.equal(kadikoy.status, 200, JSON.stringify(kadikoy.body));
    assert.equal(kadikoy.headers.get('x-data-attribution'), 'test attribution');
    assert.deepEqual(
      { countryCode: kadikoy.body.countryCode, city: kadikoy.body.city, district: kadikoy.body.district },
      { countryCode: 'TUR', city: { id: 34, name: 'İstanbul' }, district: { id: 1421, name: 'Kadıköy' } },
    );
    assert.equal(typeof kadikoy.body.neighborhood?.id, 'number');
    // Ankara has no neighbourhoods in the data; the open sea has no area at all (not the nearest one).
    const ankara = await post({ point: { lng: 32.78, lat: 39.87 } });
    assert.deepEqual(ankara.body, { countryCode: 'TUR', city: { id: 6, name: 'Ankara' }, district: { id: 1231, name: 'Çankaya' }, neighborhood: null });
    const sea = await post({ point: { lng: 34.0, lat: 42.5 } });
    assert.equal(sea.status, 200, JSON.stringify(sea.body));
    assert.deepEqual(sea.body, { countryCode: null, city: null, district: null, neighborhood: null });
    const bad = await post({ point: { lng: 200, lat: 39 } });
    assert.equal(bad.status, 400);
    assert.match(bad.body.message + JSON.stringify(bad.body.messages ?? []), /point/);
  });

  it('answers 404 in ErrorResponse shape for unknown ids and 400 for non-numeric ids', async () => {
    const missing = await get('/v1/alarms/forecasts/district/999999');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error, 'Not Found');
    assert.equal(missing.body.path, '/v1/alarms/forecasts/district/999999');
    assert.match(missing.body.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}$/);
    const bad = await get('/v1/alarms/geometries/neighborhood/abc');
    assert.equal(bad.status, 400);
    assert.match(bad.body.message, /neighborhoodId/);
  });

  it('simplifies polygons on request, keeping rings closed', async () => {
    const full = await get('/v1/alarms/forecasts/district/1421');
    const light = await get('/v1/alarms/forecasts/district/1421?simplifyTolerance=500');
    const vertices = (b: { geometry: { polygons: PolygonJson[] } }) => b.geometry.polygons.reduce((n, p) => n + p.exterior.length, 0);
    assert.ok(vertices(light.body) < vertices(full.body), `${vertices(light.body)} < ${vertices(full.body)}`);
    assert.ok(light.body.geometry.polygons.every((p: PolygonJson) => closed(p.exterior)));
    assert.equal((await get('/v1/alarms/forecasts/district/1421?simplifyTolerance=-1')).status, 400);
  });

  const places: Array<[string, number, number, { country: string; city?: number; district?: number }]> = [
    ['Kadıköy', 29.03, 40.99, { country: 'TUR', city: 34, district: 1421 }],
    ['Çankaya', 32.85, 39.92, { country: 'TUR', city: 6, district: 1231 }],
    ['Konak', 27.13, 38.42, { country: 'TUR', city: 35, district: 1819 }],
    ['Ortahisar', 39.72, 41.0, { country: 'TUR', city: 61, district: 2097 }],
    ['Gökçeada', 25.85, 40.18, { country: 'TUR', city: 17, district: 1408 }],
    ['Büyükada (Adalar)', 29.12, 40.857, { country: 'TUR', city: 34, district: 1103 }],
    ['Lefkoşa', 33.36, 35.18, { country: 'CTR' }],
    ['the Black Sea, 300 km offshore', 31.5, 43.9, { country: '' }],
  ];
  for (const [name, lng, lat, expected] of places) {
    it(`resolves ${name} over gRPC`, async () => {
      const r = await client.resolvePoint({ point: { lng, lat } });
      assert.equal(r.countryCode, expected.country);
      if (expected.city !== undefined) assert.equal(r.city?.id, expected.city);
      if (expected.district !== undefined) assert.equal(r.district?.id, expected.district);
      if (expected.country === '') assert.equal(r.city ?? null, null);
    });
  }

  it('refuses gRPC calls without a valid internal token', async () => {
    for (const [what, internalToken] of Object.entries(untrustedTokens('geo'))) {
      const untrusted = createClient(geoV1.GeoService, `127.0.0.1:${service.port}`, internalToken ? { internalToken } : {});
      const failure = await untrusted.listCountries({}).catch((error: unknown) => error);
      untrusted.close();
      assert.ok(failure instanceof GrpcError && failure.code === GrpcStatus.UNAUTHENTICATED, `${what}: ${String(failure)}`);
    }
    // The same call with a service's token is served.
    assert.ok((await client.listCountries({})).countries.length > 0);
  });
});
