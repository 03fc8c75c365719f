import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { GrpcError, GrpcStatus } from '@stormhook/grpc';
import { alarmV1, commonV1 } from '@stormhook/proto';
import type { RouteSpec } from '../contract/route-spec.js';
import { setAuthState } from '../http/auth-state.js';
import { request, serve, type JsonAnswer, type RunningApp } from '../test-support/serve.js';
import { alarmHandlers, type AlarmHandlerDeps } from './alarms.js';

const ACCOUNT = '0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b';
const FROM = Date.UTC(2026, 10, 21, 12, 0, 0);
const TO = Date.UTC(2026, 10, 28, 12, 0, 0);

/** Stands in for the access guards: an API_USER of ACCOUNT. */
const signedIn = (operation: RouteSpec): RequestHandler[] =>
  operation.authenticated
    ? [
        (req, _res, next) => {
          setAuthState(req, { principal: { userId: 'u1', accountId: ACCOUNT, role: 'API_USER', username: 'u1@example.com', via: 'access-token' } });
          next();
        },
      ]
    : [];

/** The matcher's BacktestAlarm: records each request and answers what the test set. */
class FakeMatcher {
  readonly requests: alarmV1.BacktestAlarmRequest[] = [];
  answer: alarmV1.BacktestAlarmResponse | GrpcError = alarmV1.BacktestAlarmResponse.create({ fromEpochMs: FROM, toEpochMs: TO });

  async backtestAlarm(req: alarmV1.BacktestAlarmRequest): Promise<alarmV1.BacktestAlarmResponse> {
    this.requests.push(req);
    if (this.answer instanceof GrpcError) throw this.answer;
    return this.answer;
  }
}

const unused = new Proxy({}, { get: () => () => Promise.reject(new Error('not used by a back-test')) });

const pointBody = {
  recipientId: 'field-7',
  boundary: { point: { lng: 32.8597, lat: 39.9334 }, radius: 10_000 },
  filter: { lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrent: 10_000 } },
  from: FROM,
  to: TO,
};

function messagesOf(answer: JsonAnswer): string[] {
  assert.equal(answer.status, 400, `expected 400, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  return answer.body['messages'] as string[];
}

describe('POST /v1/alarms/{kind}/backtest', () => {
  let app: RunningApp;
  let matcher: FakeMatcher;
  const post = (path: string, body: unknown): Promise<JsonAnswer> => request(app.baseUrl, 'POST', path, body);

  beforeEach(async () => {
    matcher = new FakeMatcher();
    const deps = { alarms: matcher, identity: unused, notifier: unused } as unknown as AlarmHandlerDeps;
    app = await serve({ guards: signedIn, handlers: alarmHandlers(deps) });
  });
  afterEach(() => app.close());

  describe('the body', () => {
    it('is the register body with from and to required, each named when missing', async () => {
      const { from: _from, to: _to, ...draft } = pointBody;
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', draft)), ['from is required', 'to is required']);
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', { ...draft, to: TO })), ['from is required']);
      assert.equal(matcher.requests.length, 0);
    });

    it('takes from and to as integers of epoch milliseconds only, naming the field', async () => {
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', { ...pointBody, from: '1795000000000' })), ['from must be integer']);
      // A fraction also fails the int64 format: every line names the field, the first says what is wrong.
      const fraction = messagesOf(await post('/v1/alarms/points/backtest', { ...pointBody, to: 1_795_788_000_000.5 }));
      assert.equal(fraction[0], 'to must be integer');
      assert.ok(
        fraction.every((m) => m.startsWith('to ')),
        fraction.join('; '),
      );
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', { ...pointBody, from: -1 })), ['from must be >= 0']);
      assert.deepEqual(
        messagesOf(await post('/v1/alarms/geometries/backtest', { recipientId: 'r', boundary: { cityId: 6 }, filter: {}, from: null, to: TO })),
        ['from must be integer'],
      );
      assert.equal(matcher.requests.length, 0);
    });

    it("validates the rest as the kind's register body does", async () => {
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', { ...pointBody, boundary: { point: pointBody.boundary.point, radius: 50 } })), [
        'boundary.radius must be >= 100',
      ]);
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', { ...pointBody, window: 7 })), ['window is not a known field']);
      const { recipientId: _recipient, ...anonymous } = pointBody;
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', anonymous)), ['recipientId is required']);
      const forecast = messagesOf(await post('/v1/alarms/forecasts/backtest', { ...pointBody, boundary: { type: 'POINT', point: pointBody.boundary.point } }));
      assert.deepEqual(forecast.sort(), ['filter.lightning is not a known field', 'forecastAlarmDelivery is required', 'forecastDays is required']);
    });

    it('needs no webhook, and sends on of one only what shows it was sent, never its credentials', async () => {
      assert.equal((await post('/v1/alarms/points/backtest', pointBody)).status, 200);
      assert.equal(matcher.requests[0]?.registration?.webhook, null, 'none sent, none passed on');
      const webhook = {
        url: 'https://hooks.example.com.tr/stormhook',
        authentication: { type: 'BASIC', username: 'hook', password: 'secret-1' },
        requestHeaders: { 'X-Tenant': 't1' },
      };
      assert.equal((await post('/v1/alarms/points/backtest', { ...pointBody, webhook })).status, 200);
      const sent = matcher.requests[1]?.registration?.webhook;
      assert.equal(sent?.accountId, '');
      assert.equal(sent?.config?.url, webhook.url);
      assert.equal(sent?.config?.authentication ?? null, null, 'credentials stay in the gateway');
      assert.deepEqual(sent?.config?.requestHeaders, {});
      assert.equal((await post('/v1/alarms/points/backtest', { ...pointBody, webhook: { accountId: ACCOUNT } })).status, 200);
      assert.deepEqual(matcher.requests[2]?.registration?.webhook, { accountId: ACCOUNT, config: null });
      assert.deepEqual(messagesOf(await post('/v1/alarms/points/backtest', { ...pointBody, webhook: { accountId: 'nope' } })), [
        'webhook.accountId must be a valid uuid',
      ]);
    });
  });

  it('asks the matcher for the kind of the route, with the caller, the draft and the window', async () => {
    assert.equal((await post('/v1/alarms/points/backtest', pointBody)).status, 200);
    const sent = matcher.requests[0]!;
    assert.equal(sent.kind, 'REGISTRATION_KIND_POINT');
    assert.equal(sent.principal?.accountId, ACCOUNT);
    assert.equal(sent.fromEpochMs, FROM);
    assert.equal(sent.toEpochMs, TO);
    assert.equal(sent.registration?.recipientId, 'field-7');
    assert.deepEqual(sent.registration?.pointBoundary, { point: { lng: 32.8597, lat: 39.9334 }, radiusM: 10_000 });
    assert.deepEqual(sent.registration?.weatherFilter?.lightning, { type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND', peakCurrentAmperes: 10_000 });
    assert.equal(
      (await post('/v1/alarms/geometries/backtest', { recipientId: 'r', boundary: { cityId: 6, districtId: 1231 }, filter: {}, from: FROM, to: TO })).status,
      200,
    );
    assert.equal(matcher.requests[1]?.kind, 'REGISTRATION_KIND_GEOMETRY');
    assert.deepEqual(matcher.requests[1]?.registration?.geometryBoundary, { cityId: 6, districtId: 1231 });
  });

  it("answers the matcher's outcome in the public shape, payloads as JSON objects", async () => {
    const strike = { callbackType: 'lightning.strike', stage: 'START', callbacks: 2 };
    const payload = '{"type":"lightning.strike","registrationId":"d0d0","peakCurrent":-24500,"simulation":true}';
    matcher.answer = alarmV1.BacktestAlarmResponse.create({
      fromEpochMs: FROM,
      toEpochMs: TO,
      callbacks: 2,
      firstCallbackEpochMs: FROM + 60_000,
      lastCallbackEpochMs: FROM + 90_000,
      days: [{ day: '2026-11-21', callbacks: 2, byType: [strike] }],
      byType: [strike],
      samples: [{ callbackType: 'lightning.strike', atEpochMs: FROM + 60_000, payloadJson: payload }],
      coverage: [
        {
          dataKind: 'LIGHTNING',
          covered: [{ fromEpochMs: FROM, toEpochMs: TO - 3_600_000 }],
          gaps: [{ fromEpochMs: TO - 3_600_000, toEpochMs: TO }],
        },
      ],
      sweep: {
        field: 'filter.lightning.peakCurrent',
        current: '10000',
        points: [
          { value: '0', callbacks: 4 },
          { value: '10000', callbacks: 2 },
        ],
      },
      warnings: ['webhook is not used by a back-test'],
    });
    const answer = await post('/v1/alarms/points/backtest', pointBody);
    assert.equal(answer.status, 200);
    assert.deepEqual(answer.body, {
      from: FROM,
      to: TO,
      callbacks: 2,
      firstCallback: FROM + 60_000,
      lastCallback: FROM + 90_000,
      days: [{ day: '2026-11-21', callbacks: 2, byType: [strike] }],
      byType: [strike],
      samples: [{ callbackType: 'lightning.strike', at: FROM + 60_000, payload: JSON.parse(payload) }],
      coverage: [{ dataKind: 'LIGHTNING', covered: [{ from: FROM, to: TO - 3_600_000 }], gaps: [{ from: TO - 3_600_000, to: TO }] }],
      sweep: {
        field: 'filter.lightning.peakCurrent',
        current: '10000',
        points: [
          { value: '0', callbacks: 4 },
          { value: '10000', callbacks: 2 },
        ],
      },
      warnings: ['webhook is not used by a back-test'],
    });
  });

  it('answers null for the first and last callback and the sweep when there are none', async () => {
    const answer = await post('/v1/alarms/points/backtest', pointBody);
    assert.equal(answer.status, 200);
    assert.equal(answer.body['callbacks'], 0);
    assert.equal(answer.body['firstCallback'], null);
    assert.equal(answer.body['lastCallback'], null);
    assert.equal(answer.body['sweep'], null);
  });

  it("passes the matcher's refusal of the window on as a 400 naming the field", async () => {
    const message = 'to must not be in the future (it is 2026-11-28T13:00:00.000Z, now is 2026-11-28T12:00:00.000Z)';
    matcher.answer = new GrpcError(
      GrpcStatus.INVALID_ARGUMENT,
      message,
      commonV1.ErrorDetail.create({ reason: 'VALIDATION_FAILED', message, messages: [message], httpStatus: 400, metadata: { field: 'to' } }),
    );
    const answer = await post('/v1/alarms/points/backtest', pointBody);
    assert.deepEqual(messagesOf(answer), [message]);
  });

  it('answers 500, not a broken body, when a sample payload is not a JSON object', async () => {
    matcher.answer = alarmV1.BacktestAlarmResponse.create({ samples: [{ callbackType: 'lightning.strike', atEpochMs: FROM, payloadJson: '[1]' }] });
    assert.equal((await post('/v1/alarms/points/backtest', pointBody)).status, 500);
  });
});
