import assert from 'node:assert/strict';
import { queryV1 } from '@stormhook/proto';
import { MASKED_PASSWORD } from '../handlers/webhook-mapping.js';
import { createSchemaCompiler } from '../http/validate.js';
import { ROUTES } from '../routes/table.js';
import type { RouteSpec } from '../contract/route-spec.js';
import { buildOpenApiDocument } from './document.js';

type Doc = Record<string, any>;

/** Every operation of the document with the route it was built from. */
function operations(doc: Doc): Array<{ name: string; operation: Doc; route: RouteSpec }> {
  const byId = new Map(ROUTES.map((route) => [route.operationId, route]));
  return Object.entries(doc['paths'] as Doc).flatMap(([path, item]) =>
    Object.entries(item as Doc).map(([method, operation]) => {
      const route = byId.get(operation['operationId']);
      assert.ok(route, `${method} ${path} comes from the route table`);
      return { name: `${method.toUpperCase()} ${path} (${String(operation['operationId'])})`, operation, route };
    }),
  );
}

describe('OpenAPI examples', () => {
  const doc: Doc = JSON.parse(JSON.stringify(buildOpenApiDocument(ROUTES)));
  // The validator of the requests themselves: an example it rejects would be a 400 if a reader sent it.
  const compiler = createSchemaCompiler();

  it('has a request body example for every operation with a body, valid against its schema', () => {
    let checked = 0;
    const problems: string[] = [];
    for (const { name, operation, route } of operations(doc)) {
      if (!route.request.body) continue;
      const content = operation['requestBody']?.content?.['application/json'];
      assert.ok(content && 'example' in content, `${name}: request example missing`);
      const validate = compiler.compileBody(route.request.body);
      if (!validate(content.example)) problems.push(`${name}: request example invalid: ${JSON.stringify(validate.errors)}\n${JSON.stringify(content.example)}`);
      checked++;
    }
    assert.deepEqual(problems, []);
    assert.ok(checked >= 20, `only ${checked} operations with a body`);
  });

  it('has an example of the main 2xx answer of every operation that answers a body, valid against its schema', () => {
    let checked = 0;
    const problems: string[] = [];
    for (const { name, operation, route } of operations(doc)) {
      const status = String(route.response.status);
      assert.match(status, /^2\d\d$/, `${name}: main answer is 2xx`);
      const content = operation['responses']?.[status]?.content?.['application/json'];
      if (!route.response.schema) {
        assert.equal(content, undefined, `${name}: no body, no JSON content`);
        continue;
      }
      assert.ok(content && 'example' in content, `${name}: ${status} example missing`);
      const validate = compiler.compileBody(route.response.schema);
      if (!validate(content.example))
        problems.push(`${name}: ${status} example invalid: ${JSON.stringify(validate.errors)}\n${JSON.stringify(content.example)}`);
      checked++;
    }
    assert.deepEqual(problems, []);
    assert.ok(checked >= 40, `only ${checked} answers with a body`);
  });

  it("shows the contract's place and country in the weather examples", () => {
    const geometry = doc['paths']['/v1/precipitations/geometry'].post.requestBody.content['application/json'].example;
    assert.ok(geometry.eventIds.length > 0);
    const cities = doc['paths']['/v1/alarms/forecasts/{countryCode}/cities'].get.responses['200'].content['application/json'].example;
    assert.ok(JSON.stringify(cities).includes('Ankara'), 'a city of the contract');
    assert.equal(geometry.center.lat, 39.9334);
    const answer = doc['paths']['/v1/precipitations/geometry'].post.responses['200'].content['application/json'].example;
    const decoded = queryV1.PrecipitationFeatureCollection.decode(Buffer.from(answer, 'base64'));
    assert.deepEqual(
      decoded.features.map((feature) => feature.id),
      geometry.eventIds,
      'the answer holds the requested events',
    );
    assert.equal(decoded.features[0]?.geometry?.multiPolygon?.polygons[0]?.rings[0]?.coordinates.length, 5);
  });

  it('shows secrets masked in answers, as interface.md 2.2 says, and in clear only in requests', () => {
    const register = doc['paths']['/v1/alarms/geometries/register'].post;
    const sent = register.requestBody.content['application/json'].example.webhook.authentication;
    const answered = register.responses['200'].content['application/json'].example.webhook.authentication;
    assert.notEqual(sent.password, MASKED_PASSWORD);
    assert.equal(answered.password, MASKED_PASSWORD);
    assert.equal(answered.type, undefined, 'no type in answers');
  });
});
