import assert from 'node:assert/strict';
import type { RequestHandler } from 'express';
import { ApiError } from '@stormhook/errors';
import { validatedInput } from './request-state.js';
import { request, serve, type JsonAnswer, type RunningApp } from '../test-support/serve.js';

const REGISTRATION_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const ACCOUNT_ID = '0b7e4c1d-2a3f-4e5d-9c8b-7a6f5e4d3c2b';

/** Echoes the validated input, to see what handlers receive. */
const echo: RequestHandler = (req, res) => {
  res.json(validatedInput(req));
};

function messagesOf(answer: JsonAnswer): string[] {
  assert.equal(answer.status, 400, `expected 400, got ${answer.status}: ${JSON.stringify(answer.body)}`);
  assert.equal(answer.body['error'], 'Bad Request');
  const messages = answer.body['messages'];
  assert.ok(Array.isArray(messages), 'messages lists the problems');
  assert.equal(answer.body['message'], messages[0]);
  return messages as string[];
}

describe('request validation', () => {
  let app: RunningApp;
  const post = (path: string, body: unknown): Promise<JsonAnswer> => request(app.baseUrl, 'POST', path, body);
  const get = (path: string): Promise<JsonAnswer> => request(app.baseUrl, 'GET', path);

  before(async () => {
    app = await serve({
      handlers: {
        getDistrict: echo,
        getPointAlarmsByRecipientId: echo,
        registerForecastAlarm: echo,
        registerGeometryAlarm: echo,
        updatePointAlarm: echo,
      },
    });
  });
  after(() => app.close());

  describe('4.1 precipitation geometry', () => {
    it('limits eventIds to 10 and radius to 200000, and bounds coordinates', async () => {
      const messages = messagesOf(
        await post('/v1/precipitations/geometry', {
          eventIds: Array.from({ length: 11 }, (_, i) => `E${i}`),
          center: { lng: -181, lat: 91 },
          radius: 200001,
        }),
      );
      assert.deepEqual(messages, [
        'eventIds must NOT have more than 10 items',
        'center.lng must be >= -180',
        'center.lat must be <= 90',
        'radius must be <= 200000',
      ]);
    });

    it('requires eventIds and both center and radius together', async () => {
      assert.deepEqual(messagesOf(await post('/v1/precipitations/geometry', { center: { lng: 29, lat: 41 } })), [
        'eventIds is required',
        'radius is required when center is present',
      ]);
    });

    it('accepts 0 to 10 event ids with or without a crop circle', async () => {
      assert.equal((await post('/v1/precipitations/geometry', { eventIds: [] })).status, 501);
      const cropped = { eventIds: ['E1'], center: { lng: 29, lat: 41 }, radius: 200000 };
      assert.equal((await post('/v1/precipitations/geometry', cropped)).status, 501);
    });
  });

  describe('4.2 precipitation list', () => {
    const valid = { backwardInterval: 60, endTimeEpoch: 0, intensityThreshold: 'LIGHT', pageNumber: 0, pageSize: 100 };

    it('names the field in the message: pageSize must be <= 100', async () => {
      const answer = await post('/v1/precipitations/page', { ...valid, pageSize: 101 });
      assert.deepEqual(messagesOf(answer), ['pageSize must be <= 100']);
      assert.equal(answer.body['message'], 'pageSize must be <= 100');
    });

    it('reports every problem at once', async () => {
      const messages = messagesOf(
        await post('/v1/precipitations/page', {
          backwardInterval: 432001,
          endTimeEpoch: -1,
          intensityThreshold: 'WET',
          pageNumber: -1,
          pageSize: '10',
          colour: 'blue',
        }),
      );
      assert.deepEqual(messages, [
        'colour is not a known field',
        'backwardInterval must be <= 432000',
        'endTimeEpoch must be >= 0',
        'intensityThreshold must be one of DRIZZLE, LIGHT, MODERATE, HEAVY, VERY_HEAVY, EXTREME',
        'pageNumber must be >= 0',
        'pageSize must be integer',
      ]);
    });

    it('accepts the bounds', async () => {
      assert.equal((await post('/v1/precipitations/page', valid)).status, 501);
      assert.equal((await post('/v1/precipitations/page', { ...valid, backwardInterval: 432000 })).status, 501);
      assert.deepEqual(messagesOf(await post('/v1/precipitations/page', { ...valid, backwardInterval: 59 })), ['backwardInterval must be >= 60']);
    });
  });

  describe('4.3 thunderstorm list', () => {
    it('requires all four fields', async () => {
      assert.deepEqual(messagesOf(await post('/v1/thunderstorms/page', {})), [
        'backwardInterval is required',
        'endTimeEpoch is required',
        'pageNumber is required',
        'pageSize is required',
      ]);
    });

    it('answers 501 in the ErrorResponse shape for a valid request while unimplemented', async () => {
      const answer = await post('/v1/thunderstorms/page', { backwardInterval: 600, endTimeEpoch: 1, pageNumber: 2, pageSize: 1 });
      assert.equal(answer.status, 501);
      assert.equal(answer.body['error'], 'Not Implemented');
      assert.equal(answer.body['message'], 'getThunderstormPage is not available yet');
      assert.equal(answer.body['path'], '/v1/thunderstorms/page');
    });
  });

  describe('4.4 current forecast', () => {
    it('bounds metrics, forecastDays and the location', async () => {
      const messages = messagesOf(await post('/v1/forecasts/current', { location: { lng: 200, lat: 0 }, metrics: [], forecastDays: 15 }));
      assert.deepEqual(messages, ['location.lng must be <= 180', 'metrics must NOT have fewer than 1 items', 'forecastDays must be <= 14']);
      const unknown = messagesOf(await post('/v1/forecasts/current', { location: { lng: 1, lat: 1 }, metrics: ['RAINBOWS'] }));
      assert.match(unknown[0] ?? '', /^metrics\[0\] must be one of WEATHER_ICON, TEMPERATURE, /);
      assert.deepEqual(messagesOf(await post('/v1/forecasts/current', { metrics: ['TEMPERATURE'], forecastDays: 0 })), [
        'location is required',
        'forecastDays must be >= 1',
      ]);
    });

    it('lets a known metric outside the current subset through (it becomes a warning, interface.md 2.11)', async () => {
      const answer = await post('/v1/forecasts/current', {
        location: { lng: 32.85, lat: 39.93 },
        metrics: ['TEMPERATURE', 'TEMPERATURE_AVG'],
        forecastDays: 14,
      });
      assert.equal(answer.status, 501);
    });
  });

  describe('4.16 user list', () => {
    it('bounds pageSize to 1..100 and checks the filters and sort directions', async () => {
      const messages = messagesOf(await post('/v1/users/page', { roles: '[ADMIN, KING]', sortBy: { username: 'up' }, pageNumber: -1, pageSize: 0 }));
      assert.equal(messages.length, 4);
      assert.match(messages[0] ?? '', /^roles is invalid: expected a bracketed list such as "\[ADMIN, API_USER\]"/);
      assert.deepEqual(messages.slice(1), ['sortBy.username must be one of asc, desc', 'pageNumber must be >= 0', 'pageSize must be >= 1']);
    });

    it('accepts the bracket notation, an array, and pageSize 100', async () => {
      const body = { roles: '[ADMIN, API_USER]', status: ['ACTIVE'], sortBy: { username: 'asc' }, pageNumber: 0, pageSize: 100 };
      assert.equal((await post('/v1/users/page', body)).status, 501);
      assert.deepEqual(messagesOf(await post('/v1/users/page', { ...body, pageSize: 101 })), ['pageSize must be <= 100']);
    });
  });

  describe('path and query parameters', () => {
    it('requires a UUID registrationId', async () => {
      const answer = await request(app.baseUrl, 'DELETE', '/v1/alarms/geometries/unregister/not-a-uuid');
      assert.deepEqual(messagesOf(answer), ['registrationId must be a valid uuid']);
      assert.equal(answer.body['path'], '/v1/alarms/geometries/unregister/not-a-uuid');
      assert.equal((await request(app.baseUrl, 'DELETE', `/v1/alarms/geometries/unregister/${REGISTRATION_ID}`)).status, 501);
    });

    it('requires numeric area ids and hands them to the handler as numbers', async () => {
      assert.deepEqual(messagesOf(await get('/v1/alarms/forecasts/district/abc')), ['districtId must be integer']);
      const answer = await get('/v1/alarms/forecasts/district/557');
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body['params'], { districtId: 557 });
    });

    it('allows only TUR and CTR as countryCode', async () => {
      assert.deepEqual(messagesOf(await get('/v1/alarms/forecasts/GRC/cities')), ['countryCode must be one of TUR, CTR']);
      assert.equal((await get('/v1/alarms/forecasts/CTR/cities')).status, 501);
    });

    it('coerces and bounds paging query parameters', async () => {
      assert.deepEqual(messagesOf(await get('/v1/alarms/points/get-by-recipient-id/r-1?pageSize=500')), ['pageSize must be <= 100']);
      const answer = await get('/v1/alarms/points/get-by-recipient-id/r-1?pageNumber=2&pageSize=5');
      assert.deepEqual(answer.body['params'], { recipientId: 'r-1' });
      assert.deepEqual(answer.body['query'], { pageNumber: 2, pageSize: 5 });
    });
  });

  describe('alarm registrations', () => {
    const registration = {
      recipientId: 'customer-user-001',
      boundary: { type: 'POINT', point: { lng: 32.85, lat: 39.93 } },
      forecastDays: 7,
      forecastAlarmDelivery: ['MORNING', 'EVENING'],
      webhook: { accountId: ACCOUNT_ID },
      filter: { precipitationThreshold: 'MODERATE' },
    };

    it('selects the boundary subtype by type and names its fields', async () => {
      const wrongType = { ...registration, boundary: { type: 'CIRCLE' } };
      assert.deepEqual(messagesOf(await post('/v1/alarms/forecasts/register', wrongType)), ['boundary.type must be one of ADMINISTRATIVE, POINT']);
      const mixed = { ...registration, boundary: { type: 'ADMINISTRATIVE', cityId: 6, point: { lng: 1, lat: 1 } } };
      assert.deepEqual(messagesOf(await post('/v1/alarms/forecasts/register', mixed)), [
        'boundary.districtId is required',
        'boundary.point is not a known field',
      ]);
    });

    it('requires either a stored webhook accountId or a url', async () => {
      const messages = messagesOf(await post('/v1/alarms/forecasts/register', { ...registration, webhook: { httpMethod: 'POST' } }));
      assert.deepEqual(messages, ['webhook is invalid: expected either accountId of the stored webhook, or a complete configuration with url']);
    });

    it('passes a valid registration to its handler unchanged', async () => {
      const answer = await post('/v1/alarms/forecasts/register', registration);
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.body['body'], registration);
    });

    it('requires registrationId on update', async () => {
      assert.deepEqual(messagesOf(await request(app.baseUrl, 'PUT', '/v1/alarms/forecasts/update', registration)), ['registrationId is required']);
    });
  });

  describe('early-warning filter fields (an extension beyond the contract)', () => {
    const geometry = (filter: unknown) => ({ recipientId: 'customer-user-001', boundary: { cityId: 6 }, webhook: { accountId: ACCOUNT_ID }, filter });
    const point = (filter: unknown) => ({
      registrationId: REGISTRATION_ID,
      recipientId: 'customer-user-001',
      boundary: { point: { lng: 32.85, lat: 39.93 }, radius: 5000 },
      webhook: { accountId: ACCOUNT_ID },
      filter,
    });
    const atBounds = [
      { lightning: { approachRadius: 500 }, thunderstorm: { approach: { leadMinutes: 5 } }, precipitation: { approach: { leadMinutes: 60 } } },
      {
        lightning: { approachRadius: 50000 },
        thunderstorm: { approach: { leadMinutes: 60 } },
        precipitation: { intensities: [], approach: { leadMinutes: 5 } },
      },
    ];

    it('passes them to the handler at their bounds, on register and on update', async () => {
      for (const filter of atBounds) {
        const registered = await post('/v1/alarms/geometries/register', geometry(filter));
        assert.equal(registered.status, 200, JSON.stringify(registered.body));
        assert.deepEqual((registered.body['body'] as Record<string, unknown>)['filter'], filter);
        const updated = await request(app.baseUrl, 'PUT', '/v1/alarms/points/update', point(filter));
        assert.equal(updated.status, 200, JSON.stringify(updated.body));
      }
    });

    it('names the field when a lead time or the ring is out of bounds or not a number', async () => {
      const messages = messagesOf(
        await post(
          '/v1/alarms/geometries/register',
          geometry({
            lightning: { approachRadius: 499 },
            thunderstorm: { approach: { leadMinutes: 61 } },
            precipitation: { approach: { leadMinutes: 4 } },
          }),
        ),
      );
      assert.deepEqual(messages, [
        'filter.lightning.approachRadius must be >= 500',
        'filter.thunderstorm.approach.leadMinutes must be <= 60',
        'filter.precipitation.approach.leadMinutes must be >= 5',
      ]);
      assert.deepEqual(
        messagesOf(
          await request(
            app.baseUrl,
            'PUT',
            '/v1/alarms/points/update',
            point({
              lightning: { approachRadius: 50001 },
              thunderstorm: { approach: { leadMinutes: 7.5 } },
              precipitation: { approach: { leadMinutes: '30' } },
            }),
          ),
        ),
        [
          'filter.lightning.approachRadius must be <= 50000',
          'filter.thunderstorm.approach.leadMinutes must be integer',
          'filter.precipitation.approach.leadMinutes must be integer',
        ],
      );
    });

    it('keeps the approach stage closed: leadMinutes is required and unknown keys are refused', async () => {
      assert.deepEqual(messagesOf(await post('/v1/alarms/geometries/register', geometry({ thunderstorm: { approach: {} } }))), [
        'filter.thunderstorm.approach.leadMinutes is required',
      ]);
      assert.deepEqual(
        messagesOf(await post('/v1/alarms/geometries/register', geometry({ precipitation: { approach: { leadMinutes: 10, leadSeconds: 600 } } }))),
        ['filter.precipitation.approach.leadSeconds is not a known field'],
      );
      assert.deepEqual(messagesOf(await post('/v1/alarms/geometries/register', geometry({ lightning: { approach: { leadMinutes: 10 } } }))), [
        'filter.lightning.approach is not a known field',
      ]);
      assert.deepEqual(messagesOf(await post('/v1/alarms/geometries/register', geometry({ thunderstorm: { approachRadius: 5000 } }))), [
        'filter.thunderstorm.approachRadius is not a known field',
      ]);
    });
  });

  it('requires a body where the operation takes one', async () => {
    assert.deepEqual(messagesOf(await request(app.baseUrl, 'POST', '/v1/auth/refresh')), ['request body is required']);
    assert.deepEqual(messagesOf(await post('/v1/auth/refresh', [])), ['request body must be object']);
  });
});

describe('guards', () => {
  let app: RunningApp;
  const seen: string[] = [];
  before(async () => {
    app = await serve({
      guards: (operation) =>
        operation.authenticated
          ? [
              (req, _res, next) => {
                seen.push(operation.operationId);
                if (req.headers.authorization === undefined) throw ApiError.unauthorized();
                next();
              },
            ]
          : [],
    });
  });
  after(() => app.close());

  it('run before the body is read and validated, and only where the operation asks for them', async () => {
    const anonymous = await request(app.baseUrl, 'POST', '/v1/thunderstorms/page', '{not json');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body['error'], 'Unauthorized');
    const authenticated = await request(app.baseUrl, 'POST', '/v1/thunderstorms/page', '{not json', { authorization: 'Bearer x' });
    assert.equal(authenticated.status, 400);
    assert.equal((await request(app.baseUrl, 'POST', '/v1/auth/login', { username: 'a@b.co', password: 'p' })).status, 501);
    assert.deepEqual(seen, ['getThunderstormPage', 'getThunderstormPage']);
  });
});
