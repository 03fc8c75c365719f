import assert from 'node:assert/strict';
import { ApiError } from '@stormhook/errors';
import { LOCAL_NANO_TIMESTAMP, recordingLogger, request, serve, type RunningApp } from '../test-support/serve.js';

const validThunderstormPage = { backwardInterval: 3600, endTimeEpoch: 1_763_000_000_000, pageNumber: 0, pageSize: 20 };

function assertErrorShape(body: Record<string, unknown>, status: number, error: string, path: string): void {
  assert.equal(body['status'], status);
  assert.equal(body['error'], error);
  assert.equal(body['path'], path);
  assert.equal(typeof body['message'], 'string');
  assert.ok(String(body['message']).length > 0);
  assert.match(String(body['timestamp']), LOCAL_NANO_TIMESTAMP);
}

describe('gateway error answers', () => {
  const recorded = recordingLogger();
  let app: RunningApp;

  before(async () => {
    app = await serve({
      logger: recorded.logger,
      bodyLimitBytes: 2048,
      handlers: {
        getThunderstormPage: () => {
          throw new Error('database password is hunter2');
        },
        getPrecipitationPage: async () => {
          await Promise.resolve();
          throw new Error('rejected later');
        },
        getCurrentForecast: () => {
          throw ApiError.paymentRequired();
        },
      },
    });
  });
  after(() => app.close());

  it('answers an unknown path with a 404 ErrorResponse, uncached and without x-powered-by', async () => {
    const answer = await request(app.baseUrl, 'GET', '/v1/no-such-thing');
    assert.equal(answer.status, 404);
    assertErrorShape(answer.body, 404, 'Not Found', '/v1/no-such-thing');
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    assert.equal(answer.headers.get('x-powered-by'), null);
    assert.equal(answer.headers.get('x-content-type-options'), 'nosniff');
  });

  it('answers a malformed percent-escape in a path with a 400 ErrorResponse, not a 500', async () => {
    const answer = await request(app.baseUrl, 'GET', '/v1/users/%ZZ');
    assert.equal(answer.status, 400);
    assertErrorShape(answer.body, 400, 'Bad Request', '/v1/users/%ZZ');
    assert.match(String(answer.body['message']), /percent-encoding/);
    assert.equal(recorded.lines.filter((line) => line['msg'] === 'unexpected error while handling request' && line['path'] === '/v1/users/%ZZ').length, 0);
  });

  it('answers a known path with an unknown method with 404', async () => {
    const answer = await request(app.baseUrl, 'GET', '/v1/thunderstorms/page');
    assertErrorShape(answer.body, 404, 'Not Found', '/v1/thunderstorms/page');
    const outsideV1 = await request(app.baseUrl, 'GET', '/');
    assert.equal(outsideV1.status, 404);
  });

  it('answers malformed JSON with 400 Malformed JSON request body', async () => {
    const answer = await request(app.baseUrl, 'POST', '/v1/thunderstorms/page', '{"pageSize": 1,');
    assertErrorShape(answer.body, 400, 'Bad Request', '/v1/thunderstorms/page');
    assert.equal(answer.body['message'], 'Malformed JSON request body');
  });

  it('answers a body over the limit with 413 and accepts one below it', async () => {
    const big = { ...validThunderstormPage, padding: 'x'.repeat(3000) };
    const answer = await request(app.baseUrl, 'POST', '/v1/auth/login', big);
    assert.equal(answer.status, 413);
    assertErrorShape(answer.body, 413, 'Payload Too Large', '/v1/auth/login');
    assert.match(String(answer.body['message']), /2048 bytes/);
    const nearLimit = {
      userId: '3f0c9d7e-8b1a-4c5d-9e2f-1a2b3c4d5e6f',
      token: 't'.repeat(1800),
      newPassword: 'correct horse battery',
    };
    const small = await request(app.baseUrl, 'POST', '/v1/users/password-reset', nearLimit);
    assert.equal(small.status, 501);
  });

  it('answers a non-JSON body on a JSON endpoint with 415', async () => {
    const answer = await request(app.baseUrl, 'POST', '/v1/auth/login', 'username=a&password=b', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    assertErrorShape(answer.body, 415, 'Unsupported Media Type', '/v1/auth/login');
    assert.equal(answer.body['message'], 'Content-Type must be application/json');
  });

  it('accepts a JSON media type with parameters and +json suffix', async () => {
    const login = { username: 'a@b.co', password: 'secret' };
    const withCharset = await request(app.baseUrl, 'POST', '/v1/auth/login', login, { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(withCharset.status, 501);
    const suffixed = await request(app.baseUrl, 'POST', '/v1/auth/login', login, { 'content-type': 'application/merge-patch+json' });
    assert.equal(suffixed.status, 501);
  });

  it('turns an unexpected exception into 500 with the contract message, hiding the detail, and logs it', async () => {
    const before = recorded.lines.length;
    const answer = await request(app.baseUrl, 'POST', '/v1/thunderstorms/page', validThunderstormPage);
    assertErrorShape(answer.body, 500, 'Internal Server Error', '/v1/thunderstorms/page');
    assert.equal(answer.body['message'], 'An Error Occurred During Invocation');
    assert.doesNotMatch(JSON.stringify(answer.body), /hunter2/);
    assert.equal(answer.headers.get('cache-control'), 'no-store');
    const logged = recorded.lines.slice(before).find((line) => line['level'] === 'error');
    assert.ok(logged, 'the failure is logged');
    assert.equal(logged['operationId'], 'getThunderstormPage');
    assert.match(JSON.stringify(logged['err']), /hunter2/);
  });

  it('turns a rejected async handler into the same 500', async () => {
    const answer = await request(app.baseUrl, 'POST', '/v1/precipitations/page', validThunderstormPage);
    assertErrorShape(answer.body, 500, 'Internal Server Error', '/v1/precipitations/page');
  });

  it('answers an ApiError with its status and message', async () => {
    const answer = await request(app.baseUrl, 'POST', '/v1/forecasts/current', {
      location: { lat: 39.9, lng: 32.8 },
      metrics: ['TEMPERATURE'],
    });
    assertErrorShape(answer.body, 402, 'Payment Required', '/v1/forecasts/current');
    assert.equal(answer.body['message'], 'You Need To Renew Your Subscription or Purchase New One');
  });
});

describe('gateway default body limit', () => {
  let app: RunningApp;
  before(async () => {
    app = await serve();
  });
  after(() => app.close());

  it('is 1 MiB', async () => {
    const justOver = { username: 'a@b.co', password: 'x'.repeat(1024 * 1024) };
    assert.equal((await request(app.baseUrl, 'POST', '/v1/auth/login', justOver)).status, 413);
    const under = { username: 'a@b.co', password: 'x'.repeat(200) };
    assert.equal((await request(app.baseUrl, 'POST', '/v1/auth/login', under)).status, 501);
  });
});
