import assert from 'node:assert/strict';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_PAYLOAD_SCHEMAS } from '@stormhook/webhooks';
import { createSchemaCompiler } from '../http/validate.js';
import { ROUTES } from '../routes/table.js';
import { request, serve, type RunningApp } from '../test-support/serve.js';
import { buildOpenApiDocument } from './document.js';
import { refsOf, resolveRef } from '../test-support/json-refs.js';

/** Every endpoint of interface.md section 4, as written there. */
const CONTRACT_SECTION_4: ReadonlyArray<[string, string]> = [
  ['post', '/v1/precipitations/geometry'], // 4.1
  ['post', '/v1/precipitations/page'], // 4.2
  ['post', '/v1/thunderstorms/page'], // 4.3
  ['post', '/v1/forecasts/current'], // 4.4
  ['post', '/v1/alarms/geometries/register'], // 4.5
  ['delete', '/v1/alarms/geometries/unregister/{registrationId}'], // 4.6
  ['get', '/v1/alarms/forecasts/get-by-id/{registrationId}'], // 4.7
  ['get', '/v1/alarms/points/get-by-recipient-id/{recipientId}'], // 4.8
  ['get', '/v1/alarms/geometries/cities'], // 4.9
  ['get', '/v1/alarms/geometries/neighborhood/{neighborhoodId}'], // 4.10
  ['get', '/v1/alarms/forecasts/district/{districtId}'], // 4.11
  ['get', '/v1/alarms/forecasts/{countryCode}/cities'], // 4.12
  ['post', '/v1/accounts/create'], // 4.13
  ['patch', '/v1/accounts/update'], // 4.14
  ['post', '/v1/accounts/phone-number-activation-request'], // 4.15
  ['post', '/v1/users/page'], // 4.16
  ['get', '/v1/users/{userId}'], // 4.17
  ['post', '/v1/users/password-reset'], // 4.18
  ['get', '/v1/users/me'], // 4.19
];

type Doc = Record<string, any>;

describe('OpenAPI document', () => {
  let app: RunningApp;
  let doc: Doc;
  before(async () => {
    app = await serve();
    const answer = await request(app.baseUrl, 'GET', '/v1/openapi.json');
    assert.equal(answer.status, 200);
    doc = answer.body;
  });
  after(() => app.close());

  it('is OpenAPI 3.1 with the ErrorResponse component and both security schemes', () => {
    assert.equal(doc['openapi'], '3.1.0');
    assert.equal(typeof doc['info']?.title, 'string');
    const errorResponse = doc['components']?.schemas?.ErrorResponse;
    assert.deepEqual(errorResponse?.required, ['timestamp', 'status', 'error', 'message', 'path']);
    assert.deepEqual(Object.keys(errorResponse?.properties ?? {}), ['timestamp', 'status', 'error', 'message', 'path', 'messages']);
    assert.deepEqual(doc['components']?.securitySchemes?.bearerAuth, {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'JWT',
      description: 'accessToken from POST /v1/auth/login',
    });
    assert.deepEqual(doc['components']?.securitySchemes?.apiKeyAuth, {
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      description: 'API key from POST /v1/api-keys/create (role API_USER only)',
    });
  });

  it('documents the identity operations of the issue and the quota headers of a 429', () => {
    const added: Array<[string, string]> = [
      ['post', '/v1/users/create'],
      ['patch', '/v1/users/update-role-status'],
      ['post', '/v1/users/password-reset-request'],
      ['get', '/v1/accounts/{userId}'],
      ['post', '/v1/accounts/phone-number-activation'],
      ['post', '/v1/accounts/update-subscription'],
      ['get', '/v1/accounts/subscription/{accountId}'],
      ['post', '/v1/api-keys/create'],
      ['get', '/v1/api-keys'],
      ['delete', '/v1/api-keys/revoke/{keyId}'],
      ['post', '/v1/auth/logout'],
    ];
    for (const [method, path] of added) assert.ok(doc['paths']?.[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
    assert.deepEqual(doc['paths']['/v1/auth/logout'].post.security, [], 'logout needs only the refresh token');
    const headers = Object.keys(doc['components'].responses.TooManyRequests.headers);
    assert.deepEqual(headers, ['Retry-After', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']);
  });

  it('contains every endpoint of interface.md section 4', () => {
    for (const [method, path] of CONTRACT_SECTION_4) {
      assert.ok(doc['paths']?.[path]?.[method], `${method.toUpperCase()} ${path} is documented`);
    }
  });

  it('is the document built from the route table, one operation per route', () => {
    assert.deepEqual(doc, JSON.parse(JSON.stringify(buildOpenApiDocument(ROUTES))));
    const operations = Object.values(doc['paths'] as Record<string, Record<string, { operationId: string }>>).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    assert.equal(operations.length, ROUTES.length);
    assert.equal(new Set(operations).size, operations.length);
  });

  it('documents the section 7 statuses and messages of the geometry operation', () => {
    const responses = doc['paths']['/v1/precipitations/geometry'].post.responses;
    assert.deepEqual(Object.keys(responses), ['200', '400', '401', '402', '403', '413', '415', '429', '500']);
    assert.equal(responses['200'].content['application/json'].schema.$ref, '#/components/schemas/PrecipitationGeometryPayload');
    const forbidden = doc['components'].responses.Forbidden.content['application/json'].examples;
    assert.equal(forbidden.noSubscription.value.message, 'No Subscription Found For This Service Endpoint');
    assert.match(forbidden.outsideBoundaries.value.message, /^The Location You Are Querying \[/);
    const limit = doc['components'].responses.TooManyRequests.content['application/json'].examples;
    assert.equal(limit.limit.value.message, 'Your Subscription Limits For This Service is Exceeded');
    assert.deepEqual(doc['paths']['/v1/precipitations/geometry'].post.security, [{ bearerAuth: [] }, { apiKeyAuth: [] }]);
    assert.deepEqual(doc['paths']['/v1/auth/login'].post.security, []);
  });

  it('has a resolvable target for every $ref', () => {
    const refs = refsOf(doc);
    assert.ok(refs.length > 50);
    for (const ref of refs) assert.ok(resolveRef(doc, ref) !== undefined, `${ref} resolves`);
  });

  it('declares each path template parameter, with the validation schema', () => {
    for (const [path, item] of Object.entries(doc['paths'] as Doc)) {
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((match) => match[1]);
      for (const operation of Object.values(item as Doc)) {
        const declared = ((operation as Doc)['parameters'] ?? []).filter((p: Doc) => p['in'] === 'path').map((p: Doc) => p['name']);
        assert.deepEqual(declared, templated, path);
      }
    }
    const userId = doc['paths']['/v1/users/{userId}'].get.parameters[0];
    assert.deepEqual(userId, {
      name: 'userId',
      in: 'path',
      required: true,
      schema: { type: 'string', format: 'uuid' },
      example: '8c2e4b61-0f3a-4d7e-9a15-2b6c8d9e0f21',
    });
  });

  it('uses only schemas that compile in strict JSON Schema 2020-12', () => {
    const compiler = createSchemaCompiler();
    for (const route of ROUTES) {
      for (const schema of [route.request.body, route.response.schema]) if (schema) compiler.compileBody(schema);
      for (const schema of [route.request.params, route.request.query]) if (schema) compiler.compileParameters(schema);
    }
  });

  it('documents every webhook callback type with its payload schema and the headers it carries', () => {
    const webhooks = doc['webhooks'] as Doc;
    assert.deepEqual(Object.keys(webhooks), [...WEBHOOK_EVENT_TYPES]);
    const strike = webhooks['lightning.strike'].post;
    assert.equal(strike.requestBody.content['application/json'].schema.$ref, '#/components/schemas/LightningStrikePayload');
    assert.deepEqual(
      strike.parameters.map((p: Doc) => p['name']),
      ['webhook-id', 'webhook-timestamp', 'webhook-signature', 'webhook-event-type'],
    );
    const schema = doc['components'].schemas.LightningStrikePayload;
    assert.deepEqual(schema.properties.type, { const: 'lightning.strike', description: schema.properties.type.description });
    assert.ok(schema.required.includes('dischargeType') && schema.required.includes('timestamp'));
    // Strict 2020-12, as the request schemas: a typo in a payload schema fails here.
    for (const type of WEBHOOK_EVENT_TYPES) createSchemaCompiler().compileBody(WEBHOOK_PAYLOAD_SCHEMAS[type]);
  });

  it('names its servers and the headers of successful answers: trace, caching, quota, attribution, missing event ids', () => {
    assert.deepEqual(
      doc['servers'].map((s: Doc) => s['url']),
      ['/', 'http://127.0.0.1:8080'],
    );
    const page = doc['paths']['/v1/precipitations/page'].post.responses['200'];
    assert.deepEqual(Object.keys(page.headers), ['traceparent', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']);
    const cities = doc['paths']['/v1/alarms/forecasts/{countryCode}/cities'].get.responses['200'];
    assert.ok(cities.headers['X-Data-Attribution'] && cities.headers['RateLimit-Remaining']);
    const geometry = doc['paths']['/v1/precipitations/geometry'].post.responses['200'];
    assert.ok(geometry.headers['X-Missing-Event-Ids']);
    assert.deepEqual(Object.keys(geometry.content), ['application/json', 'application/x-protobuf']);
    assert.deepEqual(Object.keys(doc['paths']['/v1/users/me'].get.responses['200'].headers), ['traceparent'], 'no quota headers where nothing is metered');
    assert.deepEqual(Object.keys(doc['paths']['/v1/auth/login'].post.responses['200'].headers), ['traceparent', 'Cache-Control'], 'tokens are not cached');
    assert.deepEqual(Object.keys(doc['paths']['/v1/health'].get.responses['200'].headers), ['Cache-Control'], 'health checks are not traced');
  });
});
