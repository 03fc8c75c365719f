import assert from 'node:assert/strict';
import {
  ADMIN,
  ANKARA,
  CANKAYA,
  FIKIRTEPE,
  KIZILAY,
  Receiver,
  startAlarmStack,
  fullWebhook,
  type AlarmStack,
  type Answer,
  type TestUser,
} from '../alarms/support.js';

type Doc = Record<string, any>;

/** One answer the gateway gave, with who asked: quota headers go to metered callers only. */
interface Seen {
  method: string;
  path: string;
  caller: 'admin' | 'user' | 'anyone';
  answer: Answer;
}

/** The document's path template a concrete path was served by: the one with the fewest parameters that matches. */
function templateOf(doc: Doc, method: string, url: string): string | undefined {
  const path = url.split('?')[0] ?? url;
  const templates = Object.keys(doc['paths'])
    .filter((template) => doc['paths'][template][method] !== undefined)
    .sort((a, b) => a.split('{').length - b.split('{').length);
  return templates.find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));
}

/**
 * Headers an answer may carry that the document has a say on: every header some 2xx answer of the
 * document declares, and the two every answer could carry (caching and the trace), declared or not.
 */
function watchedHeaders(doc: Doc): Set<string> {
  const names = new Set(['cache-control', 'traceparent']);
  for (const item of Object.values(doc['paths']) as Doc[]) {
    for (const operation of Object.values(item) as Doc[]) {
      for (const [status, response] of Object.entries(operation['responses'] as Doc)) {
        if (status.startsWith('2')) for (const name of Object.keys((response as Doc)['headers'] ?? {})) names.add(name.toLowerCase());
      }
    }
  }
  return names;
}

/** Declared headers an answer may rightly leave out, and when. */
function optional(name: string, seen: Seen): boolean {
  if (name === 'x-missing-event-ids') return true; // sent only when some event id was not found
  if (name.startsWith('ratelimit-')) return seen.caller !== 'user'; // ADMIN is not metered
  return false;
}

/**
 * Real 2xx answers of the gateway, in front of the real identity, geo, alarm-matcher and notifier,
 * against the headers /v1/openapi.json declares for them: none sent undeclared, none declared and
 * missing. The script walks every operation that sends Cache-Control but two (below) and most others.
 */
describe('the 2xx headers the gateway sends are those its OpenAPI document declares', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  const receiver = new Receiver();
  let doc: Doc;
  let admin: string;
  let user: TestUser;
  const seen: Seen[] = [];

  /** A call the script expects to succeed, kept for the comparison. */
  async function call(caller: Seen['caller'], method: string, path: string, body?: unknown): Promise<Answer> {
    const token = caller === 'admin' ? admin : caller === 'user' ? user.token : undefined;
    const answer = await stack.call(method.toUpperCase(), path, { ...(body !== undefined ? { body } : {}), ...(token ? { token } : {}) });
    assert.ok(answer.status >= 200 && answer.status < 300, `${method.toUpperCase()} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    seen.push({ method, path, caller, answer });
    return answer;
  }

  before(async () => {
    stack = await startAlarmStack();
    await receiver.start();
    admin = await stack.adminToken();
    user = await stack.user('API_USER');
    doc = (await call('anyone', 'get', '/v1/openapi.json')).body;

    await call('anyone', 'get', '/v1/asyncapi.json');
    await call('anyone', 'get', '/v1/health/live');
    await call('anyone', 'get', '/v1/health/ready');
    const login = await call('anyone', 'post', '/v1/auth/login', ADMIN);
    const refreshed = await call('anyone', 'post', '/v1/auth/refresh', { refreshToken: login.body['refreshToken'] });

    await call('user', 'get', '/v1/users/me');
    await call('admin', 'post', '/v1/users/page', { pageNumber: 0, pageSize: 5 });
    await call('admin', 'get', `/v1/users/${user.userId}`);
    await call('admin', 'get', `/v1/accounts/${user.userId}`);
    await call('admin', 'get', `/v1/accounts/subscription/${user.accountId}`);
    const key = await call('user', 'post', '/v1/api-keys/create', { userId: user.userId, name: 'headers' });
    await call('user', 'get', '/v1/api-keys');
    await call('user', 'delete', `/v1/api-keys/revoke/${String(key.body['keyId'])}`);

    const registrations: Record<string, Record<string, unknown>> = {
      points: { boundary: { point: KIZILAY, radius: 5_000 }, filter: { lightning: {} } },
      geometries: { boundary: { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA }, filter: { lightning: {} } },
      forecasts: {
        boundary: { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA },
        filter: { windGustThreshold: 'STRONG_WIND' },
        forecastDays: 1,
        forecastAlarmDelivery: ['MORNING'],
      },
    };
    for (const [kind, registration] of Object.entries(registrations)) {
      const recipientId = `headers-${kind}`;
      const body = { recipientId, webhook: fullWebhook(receiver.url('/hook')), ...registration };
      const registered = await call('user', 'post', `/v1/alarms/${kind}/register`, body);
      const registrationId = String(registered.body['registrationId']);
      await call('user', 'put', `/v1/alarms/${kind}/update`, { ...body, registrationId });
      await call('user', 'get', `/v1/alarms/${kind}/get-by-id/${registrationId}`);
      await call('user', 'get', `/v1/alarms/${kind}/get-by-recipient-id/${recipientId}`);
      await call('user', 'post', `/v1/alarms/${kind}/page`, { pageNumber: 0, pageSize: 20 });
      await call('user', 'delete', `/v1/alarms/${kind}/unregister/${registrationId}`);
    }
    // The first registration stored the account's webhook, which these read and change.
    await call('user', 'put', '/v1/alarms/webhooks/update', fullWebhook(receiver.url('/hook')));
    await call('user', 'get', '/v1/alarms/webhooks');
    await call('user', 'get', '/v1/alarms/webhooks/signing-secret');
    await call('user', 'post', '/v1/alarms/webhooks/rotate-secret');
    await call('user', 'post', '/v1/alarms/webhooks/enable');
    const test = await call('user', 'post', '/v1/alarms/webhooks/test');
    await call('user', 'post', '/v1/deliveries/page', {});
    await call('user', 'get', `/v1/deliveries/${String(test.body['notificationId'])}`);

    await call('user', 'get', '/v1/alarms/forecasts/thresholds');
    await call('user', 'get', `/v1/alarms/forecasts/district/${CANKAYA}?simplifyTolerance=500`);
    await call('user', 'get', `/v1/alarms/geometries/neighborhood/${FIKIRTEPE}`);
    await call('user', 'get', '/v1/alarms/forecasts/TUR/cities?simplifyTolerance=5000');
    await call('user', 'get', '/v1/alarms/geometries/cities?simplifyTolerance=5000');
    await call('anyone', 'post', '/v1/auth/logout', { refreshToken: refreshed.body['refreshToken'] });
    // The weather stream never ends while read: its status and headers are kept, then the connection is dropped.
    const aborted = new AbortController();
    const streamed = await fetch(`${stack.baseUrl}/v1/stream`, { headers: { authorization: `Bearer ${user.token}` }, signal: aborted.signal });
    assert.equal(streamed.status, 200, 'GET /v1/stream');
    seen.push({ method: 'get', path: '/v1/stream', caller: 'user', answer: { status: streamed.status, headers: streamed.headers, body: {} } });
    aborted.abort();
  });
  after(async () => {
    await receiver.stop();
    await stack?.stop();
  });

  it('sends every header a 2xx answer declares, and no caching or trace header it does not declare', () => {
    const watched = watchedHeaders(doc);
    const problems: string[] = [];
    for (const one of seen) {
      const template = templateOf(doc, one.method, one.path);
      const operation = template ? doc['paths'][template][one.method] : undefined;
      if (!operation) {
        problems.push(`${one.method.toUpperCase()} ${one.path}: no operation of the document`);
        continue;
      }
      const response = operation['responses'][String(one.answer.status)];
      const declared = new Set(Object.keys(response?.['headers'] ?? {}).map((name) => name.toLowerCase()));
      const sent = new Set([...one.answer.headers.keys()].filter((name) => watched.has(name)));
      const label = `${String(operation['operationId'])} ${one.answer.status}`;
      for (const name of sent) if (!declared.has(name)) problems.push(`${label}: sends ${name} (${one.answer.headers.get(name)}), undeclared`);
      for (const name of declared) if (!sent.has(name) && !optional(name, one)) problems.push(`${label}: declares ${name}, not sent`);
    }
    assert.deepEqual(problems, []);
  });

  it('walked every operation that declares Cache-Control but the two it cannot reach here', () => {
    const walked = new Set(seen.map((one) => doc['paths'][templateOf(doc, one.method, one.path)!][one.method]['operationId']));
    const noStore = Object.values(doc['paths'] as Doc)
      .flatMap((item) => Object.values(item as Doc))
      .filter((operation: Doc) => Object.values(operation['responses'] as Doc).some((response: Doc) => response['headers']?.['Cache-Control']))
      .map((operation: Doc) => String(operation['operationId']));
    // getHealth answers 503 without the query and ingest services; resetPassword needs the token of an e-mail.
    assert.deepEqual(noStore.filter((id) => !walked.has(id)).sort(), ['getHealth', 'resetPassword']);
    assert.ok(walked.size >= 45, `${walked.size} operations walked`);
  });
});
