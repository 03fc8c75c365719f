import assert from 'node:assert/strict';
import { DistrictIdParams, SimplifyQuery } from '../schemas/areas.js';
import type { Validated } from '../schemas/json-schema.js';
import { ThunderstormPageRequest } from '../schemas/weather.js';
import { request, serve, type RunningApp } from '../test-support/serve.js';
import { validatedBody, validatedParams, validatedQuery } from './validated-input.js';

/** True only when A and B are the same type (not merely assignable either way). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

// Compile-time checks: the type a handler reads follows the schema, required and optional fields included.
const pageBodyType: Same<
  Validated<typeof ThunderstormPageRequest>,
  { backwardInterval: number; endTimeEpoch: number; pageNumber: number; pageSize: number }
> = true;
const districtParamsType: Same<Validated<typeof DistrictIdParams>, { districtId: number }> = true;

describe('typed validated input', () => {
  let app: RunningApp;

  before(async () => {
    app = await serve({
      handlers: {
        // Reads each part by the schema its operation validates it with.
        getDistrict: (req, res) => {
          const { districtId } = validatedParams(req, DistrictIdParams);
          const { simplifyTolerance } = validatedQuery(req, SimplifyQuery);
          res.json({ districtId, simplifyTolerance, types: [typeof districtId, typeof simplifyTolerance] });
        },
        // getNeighborhood validates its path with NeighborhoodIdParams: reading it as a district is a bug.
        getNeighborhood: (req, res) => {
          res.json(validatedParams(req, DistrictIdParams));
        },
        // Its body is a PrecipitationPageRequest, not a thunderstorm page.
        getPrecipitationPage: (req, res) => {
          res.json(validatedBody(req, ThunderstormPageRequest));
        },
      },
    });
  });
  after(() => app.close());

  it('hands the handler the coerced values under the schema type', async () => {
    assert.ok(pageBodyType && districtParamsType);
    const answer = await request(app.baseUrl, 'GET', '/v1/alarms/forecasts/district/557?simplifyTolerance=12.5');
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, { districtId: 557, simplifyTolerance: 12.5, types: ['number', 'number'] });
  });

  it('refuses to type a part by a schema its operation does not validate it with', async () => {
    const params = await request(app.baseUrl, 'GET', '/v1/alarms/geometries/neighborhood/12');
    assert.equal(params.status, 500);
    const body = await request(app.baseUrl, 'POST', '/v1/precipitations/page', {
      backwardInterval: 60,
      endTimeEpoch: 0,
      pageNumber: 0,
      pageSize: 10,
    });
    assert.equal(body.status, 500);
  });
});
