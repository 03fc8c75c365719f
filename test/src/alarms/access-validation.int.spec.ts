import assert from 'node:assert/strict';
import {
  ANKARA,
  CANKAYA,
  FIKIRTEPE,
  ISTANBUL,
  KADIKOY,
  KECIOREN,
  KIZILAY,
  errorMessage,
  fullWebhook,
  startAlarmStack,
  type AlarmStack,
  type TestUser,
} from './support.js';

/**
 * Ownership (a caller sees and changes only its own account's registrations, ADMIN all; a foreign id
 * is a 404) and the validation 400s that name the field, through the gateway over the real services.
 */
describe('alarm registrations: ownership and validation', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let owner: TestUser;
  let stranger: TestUser;
  let power: TestUser;
  let admin: string;
  const ids: Record<string, string> = {};

  before(async () => {
    stack = await startAlarmStack();
    [owner, stranger, power] = await Promise.all([stack.user('API_USER'), stack.user('STANDARD_USER'), stack.user('POWER_USER')]);
    admin = await stack.adminToken();
    for (const [name, user, kind, boundary, extra] of [
      ['owner-geo', owner, 'geometries', { cityId: ANKARA, districtId: CANKAYA }, {}],
      ['owner-point', owner, 'points', { point: KIZILAY, radius: 5000 }, {}],
      [
        'owner-forecast',
        owner,
        'forecasts',
        { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA },
        { forecastDays: 2, forecastAlarmDelivery: ['MORNING'] },
      ],
      ['stranger-geo', stranger, 'geometries', { cityId: ANKARA, districtId: CANKAYA }, {}],
    ] as const) {
      const answer = await stack.call('POST', `/v1/alarms/${kind}/register`, {
        token: user.token,
        body: { recipientId: name, boundary, webhook: fullWebhook(`http://127.0.0.1:9/${name.split('-')[0]!}`), filter: {}, ...extra },
      });
      assert.equal(answer.status, 200, `${name}: ${JSON.stringify(answer.body)}`);
      ids[name] = answer.body['registrationId'];
    }
  });
  after(async () => {
    await stack?.stop();
  });

  describe('ownership', () => {
    it("answers 404 for another account's registration on get, update and unregister", async () => {
      const token = stranger.token;
      for (const [kind, name] of [
        ['geometries', 'owner-geo'],
        ['points', 'owner-point'],
        ['forecasts', 'owner-forecast'],
      ] as const) {
        assert.match(errorMessage(await stack.call('GET', `/v1/alarms/${kind}/get-by-id/${ids[name]}`, { token }), 404), new RegExp(ids[name]!));
        errorMessage(await stack.call('DELETE', `/v1/alarms/${kind}/unregister/${ids[name]}`, { token }), 404);
      }
      const update = await stack.call('PUT', '/v1/alarms/geometries/update', {
        token,
        body: { registrationId: ids['owner-geo'], recipientId: 'hijack', boundary: { cityId: ANKARA }, webhook: { accountId: stranger.accountId }, filter: {} },
      });
      errorMessage(update, 404);
      // Still there, unchanged, for its owner.
      const got = await stack.call('GET', `/v1/alarms/geometries/get-by-id/${ids['owner-geo']}`, { token: owner.token });
      assert.equal(got.body['recipientId'], 'owner-geo');
    });

    it("lists only the caller's own registrations, also by recipient id", async () => {
      const page = await stack.call('POST', '/v1/alarms/geometries/page', { token: stranger.token, body: {} });
      assert.deepEqual(
        page.body['registrations'].map((r: any) => r.recipientId),
        ['stranger-geo'],
      );
      const byRecipient = await stack.call('GET', '/v1/alarms/geometries/get-by-recipient-id/owner-geo', { token: stranger.token });
      assert.equal(byRecipient.body['totalRecords'], 0);
    });

    it('lets ADMIN see, list and change every account; accountId narrows the list', async () => {
      const got = await stack.call('GET', `/v1/alarms/points/get-by-id/${ids['owner-point']}`, { token: admin });
      assert.equal(got.status, 200, JSON.stringify(got.body));
      assert.equal(got.body['webhook']['accountId'], owner.accountId);
      const everyone = await stack.call('POST', '/v1/alarms/geometries/page', { token: admin, body: {} });
      assert.deepEqual(everyone.body['registrations'].map((r: any) => r.recipientId).sort(), ['owner-geo', 'stranger-geo']);
      const one = await stack.call('POST', '/v1/alarms/geometries/page', { token: admin, body: { accountId: stranger.accountId } });
      assert.deepEqual(
        one.body['registrations'].map((r: any) => r.recipientId),
        ['stranger-geo'],
      );
      const updated = await stack.call('PUT', '/v1/alarms/geometries/update', {
        token: admin,
        body: {
          registrationId: ids['stranger-geo'],
          recipientId: 'stranger-geo',
          boundary: { cityId: ANKARA, districtId: KECIOREN },
          webhook: { accountId: stranger.accountId },
          filter: {},
        },
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body['webhook']['accountId'], stranger.accountId, 'the registration stays with its account');
      // The stored webhook is kept; ADMIN is not of the account, so it reads it masked (issue 23 item 4).
      assert.equal(updated.body['webhook']['url'], 'http://127.0.0.1:9/******');
      const own = await stack.call('GET', `/v1/alarms/geometries/get-by-id/${ids['stranger-geo']}`, { token: stranger.token });
      assert.equal(own.body['webhook']['url'], 'http://127.0.0.1:9/stranger');
    });

    it('lets POWER_USER name another accountId in a list; anyone else gets 403', async () => {
      const power_ = await stack.call('POST', '/v1/alarms/points/page', { token: power.token, body: { accountId: owner.accountId } });
      assert.equal(power_.status, 200, JSON.stringify(power_.body));
      assert.deepEqual(
        power_.body['registrations'].map((r: any) => r.recipientId),
        ['owner-point'],
      );
      assert.match(
        errorMessage(await stack.call('POST', '/v1/alarms/points/page', { token: stranger.token, body: { accountId: owner.accountId } }), 403),
        /accountId/,
      );
      // Naming one's own account is always fine.
      const own = await stack.call('POST', '/v1/alarms/points/page', { token: owner.token, body: { accountId: owner.accountId } });
      assert.equal(own.body['totalRecords'], 1);
    });

    it("masks another account's webhook URL, header values and username for POWER_USER and ADMIN; the owner sees them", async () => {
      const forPower = await stack.call('POST', '/v1/alarms/points/page', { token: power.token, body: { accountId: owner.accountId } });
      const forAdmin = await stack.call('POST', '/v1/alarms/points/page', { token: admin, body: { accountId: owner.accountId } });
      const forOwner = await stack.call('POST', '/v1/alarms/points/page', { token: owner.token, body: {} });
      for (const answer of [forPower, forAdmin]) {
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        const webhook = answer.body['registrations'][0]['webhook'];
        assert.equal(webhook['accountId'], owner.accountId);
        assert.equal(webhook['url'], 'http://127.0.0.1:9/******');
        assert.deepEqual(webhook['requestHeaders'], { 'X-Tenant': '******' });
        assert.deepEqual(webhook['authentication'], { username: '******', password: '******' });
        assert.ok(!JSON.stringify(answer.body).includes('acme'));
      }
      const ownWebhook = forOwner.body['registrations'][0]['webhook'];
      assert.equal(ownWebhook['url'], 'http://127.0.0.1:9/owner');
      assert.deepEqual(ownWebhook['requestHeaders'], { 'X-Tenant': 'acme' });
      // ADMIN reading the account's stored webhook sees it masked as well, and cannot store the mask back.
      const stored = await stack.call('GET', `/v1/alarms/webhooks?accountId=${owner.accountId}`, { token: admin });
      assert.equal(stored.status, 200, JSON.stringify(stored.body));
      assert.equal(stored.body['url'], 'http://127.0.0.1:9/******');
      assert.deepEqual(stored.body['requestHeaders'], { 'X-Tenant': '******' });
      const sentBack = await stack.call('PUT', `/v1/alarms/webhooks/update?accountId=${owner.accountId}`, {
        token: admin,
        body: { ...fullWebhook('http://127.0.0.1:9/owner'), requestHeaders: stored.body['requestHeaders'] },
      });
      assert.match(errorMessage(sentBack, 400), /requestHeaders\.X-Tenant is masked/);
      const ownRead = await stack.call('GET', '/v1/alarms/webhooks', { token: owner.token });
      assert.deepEqual(ownRead.body['requestHeaders'], { 'X-Tenant': 'acme' });
    });

    it('needs a token, and a plan with the alarm kind', async () => {
      errorMessage(await stack.call('POST', '/v1/alarms/points/page', { body: {} }), 401);
      const basic = await stack.user('API_USER', 'BASIC_MONTHLY'); // geometry alarms only
      assert.equal((await stack.call('POST', '/v1/alarms/geometries/page', { token: basic.token, body: {} })).status, 200);
      errorMessage(await stack.call('POST', '/v1/alarms/points/page', { token: basic.token, body: {} }), 403);
    });
  });

  describe('plan geography of areas named by id', () => {
    const OUTSIDE_ANKARA =
      /^The Location You Are Querying \[[-\d.]+, [-\d.]+\] Is Not Within The Geographic Boundaries Allowed In Your Subscription \[Türkiye, Ankara\]$/;
    let ankaraOnly: TestUser;

    before(async () => {
      ankaraOnly = await stack.user('API_USER', 'NONE');
      const limits = ['ALARM_GEOMETRY', 'ALARM_FORECAST', 'ALARM_POINT', 'GEO'].map((serviceName) => ({ version: 'v1', serviceName, maxInvocation: 1000 }));
      const set = await stack.call('POST', '/v1/accounts/update-subscription', {
        token: admin,
        body: {
          accountId: ankaraOnly.accountId,
          subscriptionPlan: 'CUSTOM',
          planDetails: {
            subscriptionExpirationEpoch: Date.now() + 86_400_000,
            details: [
              {
                limitResetRecurrence: { limitType: 'DAILY', limitResetInterval: 1 },
                geoBoundary: { country: 'TUR', region: 'Ankara' },
                apiServiceLimits: limits,
              },
            ],
          },
        },
      });
      assert.equal(set.status, 200, JSON.stringify(set.body));
    });

    const register = (kind: string, boundary: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
      stack.call('POST', `/v1/alarms/${kind}/register`, {
        token: ankaraOnly.token,
        body: { recipientId: 'ankara-only', boundary, webhook: fullWebhook('http://127.0.0.1:9/ankara'), filter: {}, ...extra },
      });
    const daily = { forecastDays: 2, forecastAlarmDelivery: ['MORNING'] };

    it('refuses an alarm on an İstanbul district to a customer limited to Ankara, with the location 403', async () => {
      assert.match(errorMessage(await register('geometries', { cityId: ISTANBUL, districtId: KADIKOY }), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await register('geometries', { cityId: ISTANBUL }), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await register('geometries', { cityId: ISTANBUL, districtId: KADIKOY, neighborhoodId: FIKIRTEPE }), 403), OUTSIDE_ANKARA);
      // An allowed city does not carry a district of another one in with it.
      assert.match(errorMessage(await register('geometries', { cityId: ANKARA, districtId: KADIKOY }), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await register('forecasts', { type: 'ADMINISTRATIVE', cityId: ISTANBUL, districtId: KADIKOY }, daily), 403), OUTSIDE_ANKARA);
      const inside = await register('geometries', { cityId: ANKARA, districtId: CANKAYA });
      assert.equal(inside.status, 200, JSON.stringify(inside.body));
      const forecastInside = await register('forecasts', { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: KECIOREN }, daily);
      assert.equal(forecastInside.status, 200, JSON.stringify(forecastInside.body));
    });

    it('refuses the boundaries of areas outside Ankara, and serves those inside', async () => {
      assert.match(errorMessage(await stack.call('GET', `/v1/alarms/forecasts/district/${KADIKOY}`, { token: ankaraOnly.token }), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await stack.call('GET', `/v1/alarms/geometries/neighborhood/${FIKIRTEPE}`, { token: ankaraOnly.token }), 403), OUTSIDE_ANKARA);
      const inside = await stack.call('GET', `/v1/alarms/forecasts/district/${CANKAYA}`, { token: ankaraOnly.token });
      assert.equal(inside.status, 200, JSON.stringify(inside.body));
    });

    it('locates a point in Ankara for a customer limited to Ankara, and refuses one in İstanbul with the location 403', async () => {
      const locate = (point: { lng: number; lat: number }) => stack.call('POST', '/v1/alarms/geometries/locate', { token: ankaraOnly.token, body: { point } });
      assert.match(errorMessage(await locate({ lng: 29.03, lat: 40.99 }), 403), OUTSIDE_ANKARA);
      const inside = await locate({ lng: 32.78, lat: 39.87 });
      assert.equal(inside.status, 200, JSON.stringify(inside.body));
      assert.equal(inside.body.district?.id, CANKAYA);
    });

    // Coarse outlines: the tests look at which cities come back, not at their shapes.
    const cities = (path: string, token: string) => stack.call('GET', `${path}?simplifyTolerance=5000`, { token });
    const cityIds = (answer: { status: number; body: any }) => {
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return (answer.body as { id: number }[]).map((c) => c.id);
    };

    it('lists only the cities the plan covers: Ankara of Türkiye, none of Northern Cyprus', async () => {
      assert.deepEqual(cityIds(await cities('/v1/alarms/geometries/cities', ankaraOnly.token)), [ANKARA]);
      assert.deepEqual(cityIds(await cities('/v1/alarms/forecasts/TUR/cities', ankaraOnly.token)), [ANKARA]);
      assert.deepEqual(cityIds(await cities('/v1/alarms/forecasts/CTR/cities', ankaraOnly.token)), []);
      // A plan over both countries still gets every city of each.
      const everywhere = cityIds(await cities('/v1/alarms/forecasts/TUR/cities', owner.token));
      assert.equal(everywhere.length, 81);
      assert.ok(everywhere.includes(ISTANBUL));
      assert.equal(cityIds(await cities('/v1/alarms/forecasts/CTR/cities', owner.token)).length, 1);
    });

    it('refuses to move a geometry, forecast or point alarm onto İstanbul with the location 403, and leaves it as it was', async () => {
      const recipientId = 'ankara-moves';
      const registered = {
        geometries: await register('geometries', { cityId: ANKARA, districtId: CANKAYA }, { recipientId }),
        forecasts: await register('forecasts', { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: KECIOREN }, { ...daily, recipientId }),
        points: await register('points', { point: KIZILAY, radius: 5000 }, { recipientId }),
      };
      for (const answer of Object.values(registered)) assert.equal(answer.status, 200, JSON.stringify(answer.body));
      const update = (kind: keyof typeof registered, boundary: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
        stack.call('PUT', `/v1/alarms/${kind}/update`, {
          token: ankaraOnly.token,
          body: {
            registrationId: registered[kind].body['registrationId'],
            recipientId,
            boundary,
            webhook: { accountId: ankaraOnly.accountId },
            filter: {},
            ...extra,
          },
        });
      assert.match(errorMessage(await update('geometries', { cityId: ISTANBUL, districtId: KADIKOY }), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await update('geometries', { cityId: ANKARA, districtId: KADIKOY }), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await update('forecasts', { type: 'ADMINISTRATIVE', cityId: ISTANBUL, districtId: KADIKOY }, daily), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await update('forecasts', { type: 'POINT', point: { lat: 41.01, lng: 28.97 } }, daily), 403), OUTSIDE_ANKARA);
      assert.match(errorMessage(await update('points', { point: { lat: 41.01, lng: 28.97 }, radius: 5000 }), 403), OUTSIDE_ANKARA);
      for (const [kind, answer] of Object.entries(registered)) {
        const stored = await stack.call('GET', `/v1/alarms/${kind}/get-by-id/${answer.body['registrationId']}`, { token: ankaraOnly.token });
        assert.equal(stored.status, 200, JSON.stringify(stored.body));
        assert.deepEqual(stored.body['boundary'], answer.body['boundary'], kind);
        assert.equal(stored.body['updatedAt'], answer.body['updatedAt'], kind);
      }
      // The same update inside Ankara goes through: the 403s above were the geography, not the request.
      const moved = await update('geometries', { cityId: ANKARA, districtId: KECIOREN });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body['boundary']['districtId'], KECIOREN);
    });
  });

  describe('validation (400 naming the field)', () => {
    const register = (kind: string, body: Record<string, unknown>) =>
      stack.call('POST', `/v1/alarms/${kind}/register`, {
        token: owner.token,
        body: { recipientId: 'invalid', webhook: { accountId: owner.accountId }, filter: {}, ...body },
      });
    const forecast = (body: Record<string, unknown>) =>
      register('forecasts', {
        boundary: { type: 'ADMINISTRATIVE', cityId: ANKARA, districtId: CANKAYA },
        forecastDays: 3,
        forecastAlarmDelivery: ['MORNING'],
        ...body,
      });

    it('refuses unknown boundary ids and a district or neighbourhood outside its parent', async () => {
      assert.match(errorMessage(await register('geometries', { boundary: { cityId: 99 } }), 400), /boundary\.cityId/);
      assert.match(errorMessage(await register('geometries', { boundary: { cityId: ANKARA, districtId: 999999 } }), 400), /boundary\.districtId/);
      assert.match(errorMessage(await register('geometries', { boundary: { cityId: ISTANBUL, districtId: CANKAYA } }), 400), /boundary\.districtId/);
      assert.match(
        errorMessage(await register('geometries', { boundary: { cityId: ANKARA, districtId: CANKAYA, neighborhoodId: FIKIRTEPE } }), 400),
        /boundary\.neighborhoodId/,
      );
      assert.match(errorMessage(await forecast({ boundary: { type: 'ADMINISTRATIVE', cityId: ISTANBUL, districtId: KECIOREN } }), 400), /boundary\.districtId/);
      // A real neighbourhood in its district is accepted.
      const ok = await register('geometries', { boundary: { cityId: ISTANBUL, districtId: KADIKOY, neighborhoodId: FIKIRTEPE } });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
    });

    it('refuses forecastDays outside 1 to 14 and unknown deliveries', async () => {
      assert.match(errorMessage(await forecast({ forecastDays: 15 }), 400), /forecastDays/);
      assert.match(errorMessage(await forecast({ forecastDays: 0 }), 400), /forecastDays/);
      assert.match(errorMessage(await forecast({ forecastAlarmDelivery: ['NOON'] }), 400), /forecastAlarmDelivery\[0\]/);
      assert.match(errorMessage(await forecast({ forecastAlarmDelivery: [] }), 400), /forecastAlarmDelivery/);
    });

    it('refuses a point radius outside 100 to 200000 metres', async () => {
      assert.match(errorMessage(await register('points', { boundary: { point: KIZILAY, radius: 50 } }), 400), /boundary\.radius/);
      assert.match(errorMessage(await register('points', { boundary: { point: KIZILAY, radius: 200001 } }), 400), /boundary\.radius/);
      // A point outside the subscription's area is the contract's 403 (section 7), before any registration rule.
      assert.match(
        errorMessage(await register('points', { boundary: { point: { lng: 10, lat: 50 }, radius: 1000 } }), 403),
        /Not Within The Geographic Boundaries/,
      );
      const edge = await register('points', { recipientId: 'edge', boundary: { point: KIZILAY, radius: 100 } });
      assert.equal(edge.status, 200, JSON.stringify(edge.body));
    });

    it('refuses values outside the enums of the contract and the threshold table', async () => {
      const bad: Array<[string, Record<string, unknown>, RegExp]> = [
        ['geometries', { boundary: { cityId: ANKARA }, filter: { lightning: { type: 'FORKED' } } }, /filter\.lightning\.type/],
        ['geometries', { boundary: { cityId: ANKARA }, filter: { thunderstorm: { severityThreshold: 'EXTREME' } } }, /filter\.thunderstorm\.severityThreshold/],
        [
          'points',
          { boundary: { point: KIZILAY, radius: 1000 }, filter: { precipitation: { intensities: ['WET'] } } },
          /filter\.precipitation\.intensities\[0\]/,
        ],
        ['points', { boundary: { point: KIZILAY, radius: 1000 }, filter: { lightning: { inCloudHeight: -1 } } }, /filter\.lightning\.inCloudHeight/],
        ['geometries', { boundary: { cityId: ANKARA }, filter: { thunderstorm: { speedThreshold: 501 } } }, /filter\.thunderstorm\.speedThreshold/],
        // The early-warning extension is bounded like the contract's fields.
        [
          'geometries',
          { boundary: { cityId: ANKARA }, filter: { thunderstorm: { approach: { leadMinutes: 61 } } } },
          /filter\.thunderstorm\.approach\.leadMinutes/,
        ],
        [
          'points',
          { boundary: { point: KIZILAY, radius: 1000 }, filter: { precipitation: { approach: { leadMinutes: 4 } } } },
          /filter\.precipitation\.approach\.leadMinutes/,
        ],
        ['points', { boundary: { point: KIZILAY, radius: 1000 }, filter: { lightning: { approachRadius: 50001 } } }, /filter\.lightning\.approachRadius/],
      ];
      for (const [kind, body, field] of bad) assert.match(errorMessage(await register(kind, body), 400), field);
      const threshold = errorMessage(await forecast({ filter: { windGustThreshold: 'BREEZY' } }), 400);
      assert.match(threshold, /filter\.windGustThreshold/);
      assert.match(threshold, /STRONG_WIND/, 'the accepted values are listed');
      assert.match(errorMessage(await forecast({ boundary: { type: 'CIRCLE', cityId: ANKARA } }), 400), /boundary\.type/);
    });

    it('refuses a malformed registrationId and an update without one', async () => {
      assert.match(errorMessage(await stack.call('GET', '/v1/alarms/points/get-by-id/not-a-uuid', { token: owner.token }), 400), /registrationId/);
      const update = await stack.call('PUT', '/v1/alarms/points/update', {
        token: owner.token,
        body: { recipientId: 'x', boundary: { point: KIZILAY, radius: 1000 }, webhook: { accountId: owner.accountId }, filter: {} },
      });
      assert.match(errorMessage(update, 400), /registrationId/);
      assert.match(errorMessage(await stack.call('POST', '/v1/alarms/points/page', { token: owner.token, body: { pageSize: 101 } }), 400), /pageSize/);
      assert.match(errorMessage(await stack.call('GET', '/v1/alarms/points/get-by-recipient-id/x?pageSize=0', { token: owner.token }), 400), /pageSize/);
    });
  });
});
