import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { join } from 'node:path';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';
import { pendingReasons } from './support/pending.js';
import { CANKAYA, TURKALI } from './support/places.js';
import { repoRoot } from './support/repo.js';
import { ensureSchemathesis, fuzzApi, SCHEMATHESIS_VERSION } from './support/schemathesis.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

/** Test cases per operation and phase: enough to hit every schema boundary, small enough for minutes. */
const MAX_EXAMPLES = Number(process.env['E2E_FUZZ_MAX_EXAMPLES'] ?? 15);

/**
 * Issue item 4, HTTP: property-based fuzzing of every operation of /v1/openapi.json with
 * schemathesis (from PyPI, installed and cached by this test), then hostile requests no schema
 * describes. No 5xx, every error an ErrorResponse, every answer as its schema declares.
 */
describe('e2e hostile input: the HTTP API', function () {
  this.timeout(600_000);
  let stack: E2eStack;
  let receiver: WebhookReceiver;

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    receiver = await WebhookReceiver.start('/fuzz');
  });

  after(async () => {
    await receiver?.stop();
  });

  it('fuzzes every operation from the OpenAPI document: no 5xx, errors as ErrorResponse, answers as declared', async () => {
    const st = await ensureSchemathesis();
    const seed = Number(process.env['E2E_FUZZ_SEED'] ?? randomInt(1, 2 ** 31));
    // A fresh ADMIN login: ADMIN reaches every operation and is not metered, so answers are not 429s.
    const token = (await stack.api.login(stack.admin.email, stack.admin.password)).accessToken;
    const started = Date.now();
    const report = await fuzzApi(st, {
      baseUrl: stack.process.baseUrl,
      token,
      workDir: join(repoRoot, '.stack', 'logs', stack.instance, 'schemathesis'),
      maxExamples: MAX_EXAMPLES,
      seed,
      exclude: {
        // 30 failed sign-ins per address lock 127.0.0.1 out for 15 minutes, and every later login of
        // this run with it. Hostile login bodies are sent by hand below instead.
        login: 'failed sign-ins lock the address out',
        // As ADMIN the fuzzer really runs forecast slots on this shared stack, for the days it draws
        // or the OpenAPI example's (2026-11-28, tomorrow in a CI run of 2026-11-27): the story spec
        // then found tomorrow's slot "already done". A [parameters] pin of body.date does not reach
        // request bodies (tried: the slot still ran). Its input errors are checked in
        // test/src/alarms/registrations.int.spec.ts, on a stack of its own.
        runForecastSlot: 'runs forecast slots on the shared stack, which the story spec needs unclaimed',
        // A valid request opens a stream that never ends while the client reads: each would wait out
        // the request timeout and count as a failure. Its parameter errors, geography and slow-client
        // cut-off are checked in test/src/stream/weather-stream.int.spec.ts.
        streamWeather: 'an endless text/event-stream answer; checked by the weather-stream integration spec',
      },
      parameters: {
        'path.districtId': CANKAYA.districtId,
        'path.neighborhoodId': TURKALI.id,
        // Every webhook the fuzzer stores points at the local receiver: callbacks never leave the machine.
        'body.webhook.url': receiver.url,
        'body.url': receiver.url,
      },
      timeoutMs: 480_000,
    });
    const seconds = ((Date.now() - started) / 1000).toFixed(0);
    const fiveXx = Object.entries(report.statuses)
      .filter(([status]) => Number(status) >= 500)
      .reduce((sum, [status, n]) => sum + (Number(status) === 501 ? 0 : n), 0);
    stack.figures[`schemathesis ${SCHEMATHESIS_VERSION} (seed ${seed}, ${MAX_EXAMPLES} examples per operation and phase)`] =
      `${report.requests} requests in ${seconds} s`;
    stack.figures['fuzzing: statuses'] = JSON.stringify(report.statuses);
    stack.figures['fuzzing: 5xx (not counting 501 of operations not served yet)'] = fiveXx;
    stack.figures['fuzzing: errors not in ErrorResponse shape'] = report.notErrorResponses.length;
    stack.figures['fuzzing: answers breaking their declared schema, status or content type'] = report.conformanceFailures.length;
    stack.figures['fuzzing: schema-violating requests accepted (operations)'] = report.invalidAccepted.length;
    for (const [operation, message] of Object.entries(report.pendingOperations)) pendingReasons.push(`fuzzing of ${operation}: 501 (${message})`);
    if (report.invalidAccepted.length > 0) {
      process.stdout.write(
        `      schema-violating requests accepted (for the gateway owner):\n${report.invalidAccepted.map((f) => `        ${f}`).join('\n')}\n`,
      );
    }
    const findings = [...report.serverErrors, ...report.notErrorResponses, ...report.conformanceFailures];
    if (findings.length > 0)
      assert.fail(`schemathesis found (seed ${seed}; reproduce with E2E_FUZZ_SEED=${seed}):\n${findings.join('\n')}\n${report.consoleTail}`);
    assert.ok(report.requests > 1000, `only ${report.requests} requests were made:\n${report.consoleTail}`);
  });

  it('answers requests no schema describes with ErrorResponses, never a 5xx', async () => {
    const admin = await stack.adminToken();
    const api = stack.api;
    const deep = `${'['.repeat(5_000)}${']'.repeat(5_000)}`;
    const cases: Array<{ what: string; method: string; path: string; status: number[]; options: Parameters<typeof api.call>[2] }> = [
      {
        what: 'malformed JSON',
        method: 'POST',
        path: '/v1/precipitations/page',
        status: [400],
        options: { token: admin, rawBody: '{"pageSize": 1,', headers: { 'content-type': 'application/json' } },
      },
      {
        what: 'a body over the limit',
        method: 'POST',
        path: '/v1/users/page',
        status: [413],
        options: { token: admin, rawBody: `{"x":"${'a'.repeat(2 * 1024 * 1024)}"}`, headers: { 'content-type': 'application/json' } },
      },
      {
        what: 'a form body',
        method: 'POST',
        path: '/v1/forecasts/current',
        status: [415],
        options: { token: admin, rawBody: 'location=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } },
      },
      {
        what: '5,000 nested arrays',
        method: 'POST',
        path: '/v1/users/page',
        status: [400],
        options: { token: admin, rawBody: deep, headers: { 'content-type': 'application/json' } },
      },
      { what: 'a JSON array for an object', method: 'POST', path: '/v1/thunderstorms/page', status: [400], options: { token: admin, body: [1, 2, 3] } },
      {
        what: 'a __proto__ key',
        method: 'POST',
        path: '/v1/users/page',
        status: [400],
        options: { token: admin, rawBody: '{"__proto__":{"isAdmin":true},"pageNumber":0,"pageSize":5}', headers: { 'content-type': 'application/json' } },
      },
      { what: 'a repeated query parameter', method: 'GET', path: '/v1/alarms/webhooks?accountId=a&accountId=b', status: [400], options: { token: admin } },
      { what: 'an 8 KB path', method: 'GET', path: `/v1/users/${'x'.repeat(8_000)}`, status: [400, 404], options: { token: admin } },
      {
        what: 'an encoded NUL and traversal in the path',
        method: 'GET',
        path: '/v1/alarms/forecasts/district/%00..%2F..%2Fetc',
        status: [400, 404],
        options: { token: admin },
      },
      { what: 'a malformed percent-escape in a path parameter', method: 'GET', path: '/v1/users/%ZZ', status: [400], options: { token: admin } },
      {
        what: 'a truncated percent-escape in a path parameter',
        method: 'GET',
        path: '/v1/alarms/forecasts/district/12%E',
        status: [400],
        options: { token: admin },
      },
      { what: 'a 10 KB bearer token', method: 'GET', path: '/v1/users/me', status: [401], options: { token: 'x'.repeat(10_000) } },
      {
        what: 'a token signed with "none"',
        method: 'GET',
        path: '/v1/users/me',
        status: [401],
        options: { token: `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from('{"sub":"x"}').toString('base64url')}.` },
      },
      { what: 'a login without a body', method: 'POST', path: '/v1/auth/login', status: [400, 415], options: {} },
      {
        what: 'a login with a number for a password',
        method: 'POST',
        path: '/v1/auth/login',
        status: [400],
        options: { body: { username: 'a@b.c', password: 12345678 } },
      },
      {
        what: 'a login with a 100 KB username',
        method: 'POST',
        path: '/v1/auth/login',
        status: [400],
        options: { body: { username: `${'a'.repeat(100_000)}@b.c`, password: 'x' } },
      },
    ];
    const failures: string[] = [];
    for (const c of cases) {
      const answer = await api.call(c.method, c.path, c.options);
      try {
        assert.ok(
          c.status.includes(answer.status),
          `${c.what}: ${c.method} ${c.path.slice(0, 60)} answered ${answer.status}, expected ${c.status.join(' or ')}: ${answer.text.slice(0, 300)}`,
        );
        assertError(answer, answer.status);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
    assert.deepEqual(failures, []);
    const health = await api.expect(200, 'GET', '/v1/health');
    assert.equal(health.body.status, 'up');
  });
});
