import assert from 'node:assert/strict';
import { queryV1 } from '@stormhook/proto';
import { payloadProblems, WEBHOOK_EVENT_TYPES } from '@stormhook/webhooks';
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

  it('has an example of every path and query parameter, one the API accepts when typed into the URL', () => {
    let checked = 0;
    const problems: string[] = [];
    for (const { name, operation, route } of operations(doc)) {
      const parameters = (operation['parameters'] ?? []) as Doc[];
      const sources = { path: route.request.params, query: route.request.query };
      for (const parameter of parameters) {
        const label = `${name} ${String(parameter['in'])} ${String(parameter['name'])}`;
        if (!('example' in parameter) || parameter['example'] === undefined) {
          problems.push(`${label}: example missing`);
          continue;
        }
        const schema = (sources[parameter['in'] as 'path' | 'query']?.['properties'] as Doc | undefined)?.[parameter['name']];
        assert.ok(schema, `${label} comes from the route's ${String(parameter['in'])} schema`);
        // As the request validator sees it: a string from the URL, coerced to the parameter's type.
        const sent = compiler.compileParameters({ type: 'object', properties: { [parameter['name']]: schema }, required: [parameter['name']] });
        if (!sent({ [parameter['name']]: String(parameter['example']) }))
          problems.push(`${label}: example ${JSON.stringify(parameter['example'])} refused: ${JSON.stringify(sent.errors)}`);
        if (!compiler.compileBody(schema)(parameter['example']))
          problems.push(`${label}: example ${JSON.stringify(parameter['example'])} is not of the parameter's type`);
        checked++;
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(checked >= 30, `only ${checked} parameters`);
  });

  it('has an example of every content of every request body and main 2xx answer, whatever its media type', () => {
    const missing: string[] = [];
    let checked = 0;
    for (const { name, operation, route } of operations(doc)) {
      const contents = { request: operation['requestBody']?.content ?? {}, answer: operation['responses']?.[String(route.response.status)]?.content ?? {} };
      for (const [side, content] of Object.entries(contents) as Array<[string, Doc]>) {
        for (const [mediaType, media] of Object.entries(content) as Array<[string, Doc]>) {
          checked++;
          if (media['example'] === undefined && Object.keys(media['examples'] ?? {}).length === 0) missing.push(`${name} ${side} ${mediaType}`);
        }
      }
    }
    assert.deepEqual(missing, []);
    assert.ok(checked >= 60, `only ${checked} contents`);
  });

  it('shows the raw protobuf answer of the geometry operation as the bytes of its JSON example', () => {
    const answer = doc['paths']['/v1/precipitations/geometry'].post.responses['200'].content;
    const examples = Object.values(answer['application/x-protobuf'].examples ?? {}) as Doc[];
    assert.equal(examples.length, 1, 'one protobuf example');
    const bytes = Buffer.from(String(examples[0]?.['value']), 'base64');
    assert.deepEqual(bytes, Buffer.from(answer['application/json'].example, 'base64'), 'the same answer in both forms');
    assert.equal(queryV1.PrecipitationFeatureCollection.decode(bytes).features.length, 1, 'bytes that decode as the .proto says');
  });

  it('has a body example of every webhook callback, valid as a delivered payload of its own type', () => {
    const webhooks = doc['webhooks'] as Doc;
    assert.deepEqual(Object.keys(webhooks).sort(), [...WEBHOOK_EVENT_TYPES].sort(), 'one callback per event type');
    const problems: string[] = [];
    for (const [type, item] of Object.entries(webhooks)) {
      const example = item.post?.requestBody?.content?.['application/json']?.example;
      if (example === undefined) {
        problems.push(`${type}: example missing`);
        continue;
      }
      if (example['type'] !== type) problems.push(`${type}: example of type ${String(example['type'])}`);
      problems.push(...payloadProblems(example));
    }
    assert.deepEqual(problems, []);
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
