import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { CallbackSchemas } from '../support/callback-schemas.js';
import { classify, delivered, deliveryFigures, type Notification } from './support/callbacks.js';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { forecastGrid, HOUR, lightning, precipitation, thunderstorm } from './support/feed-records.js';
import { eventually, insideRing } from './support/geo-math.js';
import { skipWhenPending, skipWithReason } from './support/pending.js';
import { CANKAYA } from './support/places.js';
import { fullWebhook, registrationBody } from './support/registrations.js';
import { runSlot, SLOT_CLI, slotCliPresent } from './support/slot-cli.js';
import { verificationProblem } from './support/standard-webhooks.js';
import { WebhookReceiver, type ReceivedCall } from './support/webhook-receiver.js';

/** A point of Ankara province well away from Çankaya: the canary that tells when matching is live. */
const KECIOREN = { lng: 32.86, lat: 40.05 };
const DAY = 24 * HOUR;

/**
 * The whole story, driven only from outside: an admin creates a customer limited to Ankara;
 * the customer registers a geometry alarm for Çankaya, a point alarm and a forecast alarm; a storm
 * published to the raw feed topics crosses the district; the webhook receives lightning,
 * thunderstorm and precipitation notifications, signed and de-duplicated, then their END and the
 * lightning all-clear; the forecast slot runs with an injected clock and the forecast alarm arrives.
 * Each step skips with its reason while the gateway answers 501 for the operation it needs.
 */
describe('e2e: the whole story (customer, alarms, a storm over Çankaya, webhooks)', function () {
  this.timeout(120_000);
  let stack: E2eStack;
  let receiver: WebhookReceiver;
  let customer: Customer;
  let secret: string;
  let schemas: CallbackSchemas;
  const tag = `st${randomBytes(3).toString('hex')}`;
  const reg: { geometry?: string; point?: string; forecast?: string; canary?: string } = {};
  /** The story's notifications (the canary's left out). */
  const storyCalls = () => receiver.calls.filter((c) => classify(c).recipientId !== 'canary');
  const notified = (kind: string, stage: string, registrationId: string | undefined, event?: string) => (calls: readonly ReceivedCall[]) =>
    delivered(calls).find((n) => n.kind === kind && n.stage === stage && n.registrationId === registrationId && (event === undefined || n.event === event));

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    // The payload schemas customers read: the webhooks section of the OpenAPI the gateway serves.
    schemas = await CallbackSchemas.served(stack.process.baseUrl);
    receiver = await WebhookReceiver.start();
    customer = await createCustomer(stack.api, await stack.adminToken(), { geoBoundary: { country: 'TUR', region: 'Ankara' }, company: 'Çankaya Solar' });
  });

  after(async () => {
    if (!receiver) return;
    const figures = deliveryFigures(storyCalls());
    stack.figures['story: notifications (distinct webhook-id)'] = figures.notifications;
    stack.figures['story: callback requests (retries included)'] = figures.requests;
    stack.figures['story: webhook-ids delivered again after a failure answer'] = figures.redelivered;
    stack.figures['story: duplicate notifications'] = figures.duplicates;
    await receiver.stop();
  });

  it('registers a geometry alarm for Çankaya with the complete webhook, and reads back a masked copy', async function () {
    const me = await stack.api.expect(200, 'GET', '/v1/users/me', { token: customer.token });
    assert.equal(me.body.account.id, customer.accountId);
    const answer = await stack.api.call('POST', '/v1/alarms/geometries/register', {
      token: customer.token,
      body: registrationBody('geometries', 'substation-7', fullWebhook(receiver.url)),
    });
    skipWhenPending(this, answer, 'registerGeometryAlarm');
    assert.equal(answer.status, 200, answer.text);
    reg.geometry = String(answer.body.registrationId);
    assert.match(reg.geometry, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(answer.body.createdAt)) && !Number.isNaN(Date.parse(answer.body.updatedAt)));
    assert.ok(Array.isArray(answer.body.warnings));
    assert.equal(answer.body.webhook.accountId, customer.accountId);
    assert.equal(answer.body.webhook.authentication.type, undefined, 'authentication.type is never returned');
    assert.equal(answer.body.webhook.authentication.password, '******');
    assert.ok(!answer.text.includes('receiver-secret-1'), 'the webhook password never comes back');
    const stored = await stack.api.expect(200, 'GET', `/v1/alarms/geometries/get-by-id/${reg.geometry}`, { token: customer.token });
    assert.deepEqual(stored.body.boundary, { ...answer.body.boundary });
  });

  it('registers a point alarm and a forecast alarm reusing the stored webhook by account id', async function () {
    if (!reg.geometry) this.skip();
    const point = await stack.api.call('POST', '/v1/alarms/points/register', {
      token: customer.token,
      body: registrationBody('points', 'mast-12', { accountId: customer.accountId }),
    });
    skipWhenPending(this, point, 'registerPointAlarm');
    assert.equal(point.status, 200, point.text);
    reg.point = String(point.body.registrationId);
    assert.equal(point.body.webhook.url, receiver.url, 'the stored webhook is reused');
    const byRecipient = await stack.api.expect(200, 'GET', '/v1/alarms/points/get-by-recipient-id/mast-12', { token: customer.token });
    assert.deepEqual(
      byRecipient.body.registrations.map((r: { registrationId: string }) => r.registrationId),
      [reg.point],
    );
    const forecast = await stack.api.call('POST', '/v1/alarms/forecasts/register', {
      token: customer.token,
      body: registrationBody('forecasts', 'substation-7', { accountId: customer.accountId }),
    });
    skipWhenPending(this, forecast, 'registerForecastAlarm');
    assert.equal(forecast.status, 200, forecast.text);
    reg.forecast = String(forecast.body.registrationId);
    const read = await stack.api.expect(200, 'GET', `/v1/alarms/forecasts/get-by-id/${reg.forecast}`, { token: customer.token });
    assert.deepEqual(read.body.forecastAlarmDelivery, ['MORNING']);
    assert.equal(read.body.forecastDays, 1);
  });

  it('gets the signing secret and sees matching come alive (a canary point alarm far from the storm)', async function () {
    if (!reg.point) this.skip();
    const secrets = await stack.api.call('GET', '/v1/alarms/webhooks/signing-secret', { token: customer.token });
    skipWhenPending(this, secrets, 'getWebhookSigningSecret');
    assert.equal(secrets.status, 200, secrets.text);
    secret = String(secrets.body.signingSecret);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]+=*$/);
    // Registrations reach the matchers over a broadcast topic, in order: once the canary, registered
    // last, matches, every registration before it is indexed too.
    const canary = await stack.api.expect(200, 'POST', '/v1/alarms/points/register', {
      token: customer.token,
      body: { recipientId: 'canary', boundary: { point: KECIOREN, radius: 1000 }, webhook: { accountId: customer.accountId }, filter: { lightning: {} } },
    });
    reg.canary = String(canary.body.registrationId);
    const feed = await stack.feed();
    let n = 0;
    await eventually(
      async () => {
        await feed.lightning([lightning(`${tag}-canary-${n++}`, KECIOREN, Date.now() - 1_000)]);
        return receiver.calls.find((c) => classify(c).recipientId === 'canary' && c.answeredStatus < 300);
      },
      'the canary alarm to match a strike',
      60_000,
      2_000,
    );
    stack.figures['story: canary strikes until matching was live'] = n;
  });

  it('delivers lightning for the district and the point, signed, once per strike and registration, after retries', async function () {
    if (!reg.canary) this.skip();
    // The district served by the API holds the places the storm uses.
    const district = await stack.api.expect(200, 'GET', `/v1/alarms/forecasts/district/${CANKAYA.districtId}`, { token: customer.token });
    const rings = district.body.geometry.polygons.map((p: { exterior: Array<{ lng: number; lat: number }> }) => p.exterior);
    for (const place of [CANKAYA.centre, CANKAYA.west])
      assert.ok(
        rings.some((r: Array<{ lng: number; lat: number }>) => insideRing(place, r)),
        `${JSON.stringify(place)} lies in Çankaya`,
      );
    assert.ok(!rings.some((r: Array<{ lng: number; lat: number }>) => insideRing(CANKAYA.eastOutside, r)));

    receiver.failNext(2); // the first two callbacks fail: the notifier retries with the same webhook-id
    const feed = await stack.feed();
    const now = Date.now() - 2_000;
    const strikes = [lightning(`${tag}-s1`, CANKAYA.west, now), lightning(`${tag}-s2`, CANKAYA.centre, now + 500)];
    await feed.lightning(strikes);
    await feed.lightning(strikes); // the detection network re-sends: nothing new may come of it
    const expected: Array<[string, string | undefined]> = [
      [`${tag}-s1`, reg.geometry],
      [`${tag}-s1`, reg.point],
      [`${tag}-s2`, reg.geometry],
    ];
    for (const [strike, registrationId] of expected) {
      await receiver.waitFor(notified('LIGHTNING', 'START', registrationId, strike), `lightning ${strike} for ${registrationId}`, 60_000);
    }
    const s1 = delivered(storyCalls()).find((n) => n.event === `${tag}-s1` && n.registrationId === reg.geometry)!;
    assert.equal(s1.payload['type'], 'lightning.strike');
    assert.equal(s1.payload['dischargeType'], 'FLASH_CLOUD_TO_GROUND');
    assert.equal(s1.payload['latitude'], CANKAYA.west.lat);
    assert.equal(s1.payload['peakCurrent'], -24_000);
    assert.equal(s1.payload['recipientId'], 'substation-7');
    // s2 is 9 km from the point alarm's centre, outside its 5 km radius.
    assert.equal(
      delivered(storyCalls()).find((n) => n.event === `${tag}-s2` && n.registrationId === reg.point),
      undefined,
    );
    assertCallbacksSound();
  });

  it('delivers the thunderstorm over the district, then its END when it has moved on', async function () {
    if (!reg.canary) this.skip();
    const feed = await stack.feed();
    const start = Date.now() - 2 * 60_000;
    const storm = thunderstorm(`${tag}-storm`, CANKAYA.centre, start, start + 30 * 60_000, { version: 1 });
    await feed.thunderstorm([storm, storm]);
    const began = await receiver.waitFor(notified('THUNDERSTORM', 'START', reg.geometry, `tst_${tag}-storm`), 'the thunderstorm START', 60_000);
    assert.equal(began.payload['severity'], 'MEDIUM');
    assert.equal(began.payload['eventId'], `${tag}-storm`);
    await feed.thunderstorm([thunderstorm(`${tag}-storm`, CANKAYA.eastOutside, start, start + 30 * 60_000, { version: 2 })]);
    const ended = await receiver.waitFor(notified('THUNDERSTORM', 'END', reg.geometry, `tst_${tag}-storm`), 'the thunderstorm END', 60_000);
    assert.equal(ended.payload['endReason'], 'LEFT_AREA');
    assertCallbacksSound();
  });

  it('delivers the rain over the district, then its END when it has moved on', async function () {
    if (!reg.canary) this.skip();
    const feed = await stack.feed();
    const scan = Math.floor(Date.now() / 60_000) * 60_000 - 60_000;
    const rain = precipitation(`${tag}-rain`, CANKAYA.centre, scan, { rainRate: 5, version: 1 });
    await feed.precipitation([rain, rain]);
    const began = await receiver.waitFor(notified('PRECIPITATION', 'START', reg.geometry, `prc_${tag}-rain`), 'the precipitation START', 60_000);
    assert.equal(began.payload['intensity'], 'MODERATE');
    assert.equal(began.payload['rainRate'], 5);
    await feed.precipitation([precipitation(`${tag}-rain`, CANKAYA.eastOutside, scan + 60_000, { rainRate: 5, version: 2 })]);
    const ended = await receiver.waitFor(notified('PRECIPITATION', 'END', reg.geometry, `prc_${tag}-rain`), 'the precipitation END', 60_000);
    assert.equal(ended.payload['endReason'], 'LEFT_AREA');
    assertCallbacksSound();
  });

  it('delivers the lightning all-clear to both alarms once the quiet period has passed', async function () {
    if (!reg.canary) this.skip();
    for (const registrationId of [reg.geometry, reg.point]) {
      const clear = await receiver.waitFor(notified('ALL_CLEAR', 'ALL_CLEAR', registrationId), `the all-clear for ${registrationId}`, 60_000);
      assert.ok(clear.payload['lastStrikeEpochMillis'] >= clear.payload['firstStrikeEpochMillis']);
    }
    // Everything the storm caused, once each: 3 strikes, storm START and END, rain START and END, 2 all-clears.
    const story = delivered(storyCalls()).filter((n) => n.kind !== 'FORECAST');
    const figures = deliveryFigures(storyCalls());
    stack.figures['story: lost notifications'] = 9 - story.length;
    assert.equal(story.length, 9, `expected 9 notifications, got:\n${story.map(describeNotification).join('\n')}`);
    assert.equal(figures.duplicates, 0, 'no notification twice under two webhook-ids');
    assert.ok(figures.redelivered >= 1, 'the failed callbacks were retried with their webhook-id');
    assertCallbacksSound();
  });

  it('shows the deliveries with their attempts in the delivery log', async function () {
    if (!reg.canary) this.skip();
    const retried = [...new Set(receiver.calls.filter((c) => c.answeredStatus >= 500).map((c) => String(c.headers['webhook-id'])))];
    assert.ok(retried.length > 0);
    const detail = await stack.api.expect(200, 'GET', `/v1/deliveries/${retried[0]}`, { token: customer.token });
    assert.equal(detail.body.notificationId, retried[0]);
    assert.ok(detail.body.attempts.length >= 2, JSON.stringify(detail.body.attempts));
    assert.equal(detail.body.attempts[0].responseStatusCode, 503);
    assert.equal(detail.body.attempts[0].succeeded, false);
    assert.equal(detail.body.attempts.at(-1).succeeded, true);
    assert.equal(detail.body.status, 'SUCCEEDED');
    const page = await stack.api.expect(200, 'POST', '/v1/deliveries/page', { token: customer.token, body: { registrationId: reg.geometry, pageSize: 100 } });
    assert.ok(page.body.totalRecords >= 7, `the geometry alarm's deliveries: ${page.body.totalRecords}`);
  });

  it('runs the MORNING slot of tomorrow with the operator CLI (injected clock) and delivers the forecast alarm', async function () {
    if (!reg.forecast) this.skip();
    if (!slotCliPresent()) skipWithReason(this, `no operator command at ${SLOT_CLI} to run a forecast slot on demand`);
    const feed = await stack.feed();
    const hour = Math.floor(Date.now() / HOUR) * HOUR;
    const run = `${tag}-run`;
    // 38 °C all day tomorrow in Çankaya: above HOT_SNAP (35 °C).
    await feed.forecast([
      forecastGrid(
        run,
        hour,
        hour,
        [
          { id: `${tag}-c1`, at: CANKAYA.centre, base: 38 },
          { id: `${tag}-c2`, at: CANKAYA.west, base: 38 },
        ],
        72,
        `model-${tag}`,
      ),
    ]);
    const tomorrow = new Date(Math.floor(Date.now() / DAY) * DAY + DAY).toISOString().slice(0, 10);
    // The run reaches the matcher's forecast store asynchronously: the command waits until it holds
    // the run, then evaluates the slot once (no rerun, so the slot keeps its own id).
    const outcome = await runSlot(stack.process.env, 'MORNING', tomorrow, { waitForRun: run });
    assert.equal(outcome.evaluated, true, JSON.stringify(outcome));
    assert.equal(outcome.forecastRunId, run, JSON.stringify(outcome));
    assert.ok(outcome.notifications > 0, JSON.stringify(outcome));
    assert.equal(outcome.slotId, `${tomorrow}T04:00Z`);
    const alarm = await receiver.waitFor(notified('FORECAST', 'FORECAST', reg.forecast), 'the forecast alarm', 60_000);
    assert.equal(alarm.payload['delivery'], 'MORNING');
    assert.equal(alarm.payload['scheduledTime'], `${tomorrow}T04:00:00.000Z`);
    assert.equal(alarm.payload['districtId'], CANKAYA.districtId);
    assert.equal(alarm.payload['forecastRunId'], run);
    const hot = alarm.payload['violations'].find((v: { metric: string }) => v.metric === 'TEMPERATURE_MAX');
    assert.ok(hot, JSON.stringify(alarm.payload['violations']));
    assert.equal(hot.threshold, 'HOT_SNAP');
    assert.ok(hot.forecasts.some((f: { value: number }) => f.value >= 35));
    assertCallbacksSound();
  });

  it('unregisters the geometry alarm: it is no longer returned', async function () {
    if (!reg.geometry) this.skip();
    const removed = await stack.api.call('DELETE', `/v1/alarms/geometries/unregister/${reg.geometry}`, { token: customer.token });
    assert.ok(removed.status === 200 || removed.status === 204, `unregister answered ${removed.status}: ${removed.text}`);
    const gone = await stack.api.call('GET', `/v1/alarms/geometries/get-by-id/${reg.geometry}`, { token: customer.token });
    assert.equal(gone.status, 404, gone.text);
  });

  /**
   * Every callback so far: its body valid against the schema the served OpenAPI gives its `type`,
   * with that type as the webhook-event-type header; signed with the account's secret,
   * authenticated, the configured headers.
   */
  function assertCallbacksSound(): void {
    for (const call of receiver.calls) schemas.assertSound(call);
    const basic = `Basic ${Buffer.from('stormhook:receiver-secret-1').toString('base64')}`;
    for (const call of storyCalls()) {
      const problem = verificationProblem(secret, call.headers, call.body, call.receivedAtMs);
      assert.equal(problem, undefined, `callback ${String(call.headers['webhook-id'])}: ${problem}`);
      assert.equal(call.method, 'POST');
      assert.equal(call.headers['authorization'], basic);
      assert.equal(call.headers['x-customer-tag'], 'e2e');
      assert.match(String(call.headers['content-type']), /^application\/json/);
      assert.equal(classify(call).payload['id'], call.headers['webhook-id'], 'the payload id is the webhook-id');
    }
    // Retries of one webhook-id carry the same body.
    const bodies = new Map<string, string>();
    for (const call of storyCalls()) {
      const id = String(call.headers['webhook-id']);
      if (bodies.has(id)) assert.equal(call.body, bodies.get(id), `retries of ${id} carry the same body`);
      else bodies.set(id, call.body);
    }
  }
});

function describeNotification(n: Notification): string {
  return `  ${n.kind} ${n.stage} ${n.event} registration ${n.registrationId} (${n.webhookId})`;
}
