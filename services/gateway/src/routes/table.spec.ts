import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { request, serve, type RunningApp } from '../test-support/serve.js';
import { OPERATION_IDS, type OperationId } from '../contract/operation-ids.js';
import { ROUTES, bySpecificity, expressPath } from './table.js';

describe('route table', () => {
  it('has exactly one route per operation id and per method and path', () => {
    assert.deepEqual([...ROUTES.map((route) => route.operationId)].sort(), [...OPERATION_IDS].sort());
    const keys = ROUTES.map((route) => `${route.method} ${route.path}`);
    assert.equal(new Set(keys).size, keys.length);
  });

  it('keeps every route under /v1 and declares each template parameter in its params schema', () => {
    for (const route of ROUTES) {
      assert.match(route.path, /^\/v1\//);
      const templated = [...route.path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]).sort();
      const declared = Object.keys((route.request.params?.['properties'] as object | undefined) ?? {}).sort();
      assert.deepEqual(declared, templated, route.operationId);
    }
  });

  it('converts templates to express patterns and orders literal segments first', () => {
    assert.equal(expressPath('/v1/alarms/forecasts/{countryCode}/cities'), '/v1/alarms/forecasts/:countryCode/cities');
    const me = ROUTES.find((route) => route.operationId === 'getCurrentUser');
    const byId = ROUTES.find((route) => route.operationId === 'getUser');
    assert.ok(me && byId);
    assert.ok(bySpecificity(me, byId) < 0);
    assert.ok(bySpecificity(byId, me) > 0);
  });
});

describe('route dispatch', () => {
  let app: RunningApp;
  /** Each handler answers its own operation id, to see which one a request reaches. */
  const named = Object.fromEntries(OPERATION_IDS.map((id): [OperationId, RequestHandler] => [id, (_req, res) => void res.json({ operationId: id })]));
  before(async () => {
    app = await serve({ handlers: named });
  });
  after(() => app.close());

  const reach = async (method: string, path: string): Promise<unknown> => (await request(app.baseUrl, method, path)).body['operationId'];

  it('sends /v1/users/me to getCurrentUser and a UUID to getUser', async () => {
    assert.equal(await reach('GET', '/v1/users/me'), 'getCurrentUser');
    assert.equal(await reach('GET', '/v1/users/0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b'), 'getUser');
  });

  it('does not confuse the forecast-alarm literal paths with the countryCode template', async () => {
    assert.equal(await reach('GET', '/v1/alarms/forecasts/TUR/cities'), 'listCountryCities');
    assert.equal(await reach('GET', '/v1/alarms/forecasts/district/12'), 'getDistrict');
    assert.equal(await reach('GET', '/v1/alarms/forecasts/get-by-id/0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b'), 'getForecastAlarmById');
    assert.equal(await reach('GET', '/v1/alarms/geometries/cities'), 'listGeometryAlarmCities');
  });
});
