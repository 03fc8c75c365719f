import assert from 'node:assert/strict';
import { e2eStack, GRPC_SERVICES, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';

/** Operations of interface.md section 4, as method and path template. */
const CONTRACT_OPERATIONS: ReadonlyArray<[string, string]> = [
  ['post', '/v1/precipitations/geometry'],
  ['post', '/v1/precipitations/page'],
  ['post', '/v1/thunderstorms/page'],
  ['post', '/v1/forecasts/current'],
  ['post', '/v1/alarms/geometries/register'],
  ['delete', '/v1/alarms/geometries/unregister/{registrationId}'],
  ['get', '/v1/alarms/forecasts/get-by-id/{registrationId}'],
  ['get', '/v1/alarms/points/get-by-recipient-id/{recipientId}'],
  ['get', '/v1/alarms/geometries/cities'],
  ['get', '/v1/alarms/geometries/neighborhood/{neighborhoodId}'],
  ['get', '/v1/alarms/forecasts/district/{districtId}'],
  ['get', '/v1/alarms/forecasts/{countryCode}/cities'],
  ['post', '/v1/accounts/create'],
  ['patch', '/v1/accounts/update'],
  ['post', '/v1/accounts/phone-number-activation-request'],
  ['post', '/v1/users/page'],
  ['get', '/v1/users/{userId}'],
  ['post', '/v1/users/password-reset'],
  ['get', '/v1/users/me'],
];

describe('e2e: the stack as `npm start` runs it', function () {
  this.timeout(300_000);
  let stack: E2eStack;

  before(async () => {
    stack = await e2eStack();
  });

  it('reports every component up on /v1/health (to ADMIN; anyone else gets the bare status), and live and ready', async () => {
    const bare = await stack.api.expect(200, 'GET', '/v1/health');
    assert.equal(bare.body.status, 'up');
    assert.equal(bare.body.components, undefined);
    const health = await stack.api.expect(200, 'GET', '/v1/health', { token: await stack.adminToken() });
    assert.equal(health.body.status, 'up');
    const expected = [...GRPC_SERVICES, 'kafka', 'database'].sort();
    assert.deepEqual(Object.keys(health.body.components).sort(), expected);
    for (const [name, component] of Object.entries(health.body.components as Record<string, { status: string }>)) {
      assert.equal(component.status, 'up', `${name} is ${component.status}`);
    }
    assert.equal((await stack.api.call('GET', '/v1/health/live')).status, 200);
    assert.equal((await stack.api.call('GET', '/v1/health/ready')).status, 200);
  });

  it('serves its OpenAPI 3.1 document with every contract operation, each error an ErrorResponse', async () => {
    const answer = await stack.api.expect(200, 'GET', '/v1/openapi.json');
    const doc = answer.body;
    assert.match(doc.openapi, /^3\.1\./);
    for (const [method, path] of CONTRACT_OPERATIONS) {
      assert.ok(doc.paths[path]?.[method], `${method.toUpperCase()} ${path} is not in the document`);
    }
    const errorSchema = doc.components.schemas.ErrorResponse;
    assert.deepEqual([...errorSchema.required].sort(), ['error', 'message', 'path', 'status', 'timestamp']);
    const operationIds = new Set<string>();
    for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, { operationId: string; responses: Record<string, unknown> }>>)) {
      for (const [method, operation] of Object.entries(item)) {
        assert.ok(operation.operationId, `${method} ${path} has no operationId`);
        assert.ok(!operationIds.has(operation.operationId), `operationId ${operation.operationId} repeats`);
        operationIds.add(operation.operationId);
        for (const [status, response] of Object.entries(operation.responses)) {
          if (Number(status) < 400 || path === '/v1/health' || path === '/v1/health/ready') continue;
          const resolved = resolveResponse(doc, response);
          const ref = resolved?.content?.['application/json']?.schema?.$ref;
          assert.equal(ref, '#/components/schemas/ErrorResponse', `${method} ${path} ${status} is not an ErrorResponse`);
        }
      }
    }
  });

  it('answers an unknown path and a wrong method with an ErrorResponse', async () => {
    assertError(await stack.api.call('GET', '/v1/no-such-thing'), 404, '/v1/no-such-thing');
    const wrongMethod = await stack.api.call('PUT', '/v1/health');
    assert.ok([404, 405].includes(wrongMethod.status), `PUT /v1/health answered ${wrongMethod.status}`);
    assertError(wrongMethod, wrongMethod.status);
  });
});

function resolveResponse(
  doc: { components: { responses: Record<string, unknown> } },
  response: unknown,
): { content?: Record<string, { schema?: { $ref?: string } }> } | undefined {
  const ref = (response as { $ref?: string }).$ref;
  if (ref === undefined) return response as { content?: Record<string, { schema?: { $ref?: string } }> };
  const name = ref.replace('#/components/responses/', '');
  return doc.components.responses[name] as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined;
}
