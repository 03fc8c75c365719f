import assert from 'node:assert/strict';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { queryV1 } from '@stormhook/proto';
import { freePort, freePortBlock, uniqueName } from '@stormhook/testing';
import { CallbackSchemas } from '../support/callback-schemas.js';
import { ApiClient } from './support/api-client.js';
import { createCustomer } from './support/customer.js';
import { eventually } from './support/geo-math.js';
import { ANKARA, POLATLI } from './support/places.js';
import { fullWebhook } from './support/registrations.js';
import { repoRoot } from './support/repo.js';
import { launchStack, type StackProcess } from './support/stack-process.js';
import { WebhookReceiver } from './support/webhook-receiver.js';

const MINUTE = 60_000;
/**
 * The acceptance's own bounds: data within 2 minutes of launching `npm start` (its own Kafka and FerretDB
 * included), a callback within 5 minutes of registering. Measured on a shared 2-core machine under load:
 * up at 24-29 s, every data operation answered at 34-39 s, so the test holds the acceptance's own bound.
 */
const DATA_BUDGET_MS = 2 * MINUTE;
const CALLBACK_BUDGET_MS = 5 * MINUTE;

/**
 * What marks a record as synthetic. The contract's precipitation and thunderstorm records (interface.md
 * 2.7, 2.8) have no source or provider field, so the ids carry it: ingest prefixes the simulator's
 * source ids (sim<seed>-...) with prc_ and tst_; the demo storm's events carry -demo<hour>-.
 */
const SYNTHETIC_PRECIPITATION = /^prc_sim\d+-/;
const SYNTHETIC_THUNDERSTORM = /^tst_sim\d+-/;
const DEMO_STORM_PRECIPITATION = /^prc_sim\d+-demo\d+-/;

/**
 * Issue 14's acceptance, the way a newcomer meets the product: `npm start` with nothing set (no
 * STORMHOOK_FEED_SIM, no link origins, no SSRF exemption), then the API as the README shows it. The
 * stack gets its own embedded Kafka and FerretDB on free ports (STORMHOOK_INSTANCE keeps their data
 * apart), so it never touches the broker and database other runs share; those ports are the only
 * settings beyond a bare start. The clock starts when `npm start` is launched, not when it is up.
 */
describe('first start: a living product from `npm start` alone (issue 14)', function () {
  this.timeout(20 * MINUTE);
  const instance = uniqueName('first');
  const admin = { email: `admin@${instance}.e2e.test`, password: `first-admin-${instance}` };
  const figures: string[] = [];
  let stack: StackProcess;
  let api: ApiClient;
  let adminToken: string;
  /** When `npm start` was launched: the acceptance counts from here. */
  let startedAtMs: number;
  const sinceStart = (atMs = Date.now()) => `${((atMs - startedAtMs) / 1000).toFixed(1)} s`;
  const measured = (what: string, value: string) => {
    figures.push(`${what}: ${value}`);
    process.stdout.write(`      ${what}: ${value}\n`);
  };
  /** What is left of the 2 minutes after the start (at least one try, so a late answer still fails by its content). */
  const dataBudgetLeft = () => Math.max(1_000, startedAtMs + DATA_BUDGET_MS - Date.now());
  const lastHour = () => ({ backwardInterval: 3600, endTimeEpoch: Date.now(), pageNumber: 0, pageSize: 100 });

  before(async () => {
    const grpcBasePort = await freePortBlock(6);
    const ports = new Set<number>();
    for (let i = grpcBasePort; i < grpcBasePort + 6; i++) ports.add(i);
    const distinct = async () => {
      let port = await freePort();
      while (ports.has(port)) port = await freePort();
      ports.add(port);
      return port;
    };
    const gatewayPort = await distinct();
    const infraPorts = {
      STORMHOOK_KAFKA_PORT: String(await distinct()),
      STORMHOOK_KAFKA_CONTROLLER_PORT: String(await distinct()),
      STORMHOOK_FERRETDB_PORT: String(await distinct()),
    };
    startedAtMs = Date.now();
    stack = await launchStack(
      {
        instance,
        topicPrefix: instance,
        dbPrefix: instance.replace(/-/g, '_'),
        gatewayPort,
        grpcBasePort,
        admin,
        unset: ['KAFKA_BROKERS', 'MONGO_URL', 'STORMHOOK_ALLOWED_LINK_ORIGINS', 'NOTIFIER_DEV_OUTBOX_DIR', 'NOTIFIER_SSRF_ALLOW_CIDRS'],
        extraEnv: infraPorts,
      },
      // Its own broker and database start first: a minute more than the shared-infrastructure stack.
      6 * MINUTE,
    );
    measured('start -> "Stormhook is up"', sinceStart());
    api = new ApiClient(stack.baseUrl);
    adminToken = (await api.login(admin.email, admin.password)).accessToken;
  });

  after(async function () {
    this.timeout(3 * MINUTE);
    if (!stack) return;
    const code = await stack.interrupt(120_000).catch(() => 'timeout' as const);
    if (stack.leftovers().length > 0) stack.kill();
    rmSync(join(repoRoot, '.stack', 'data', instance), { recursive: true, force: true });
    rmSync(join(repoRoot, '.stack', 'run', instance), { recursive: true, force: true });
    process.stdout.write(`      first start, measured:\n${figures.map((f) => `        ${f}`).join('\n')}\n`);
    assert.equal(code, 0, `the stack did not stop cleanly on Ctrl-C:\n${stack.tail()}`);
  });

  it('says in the start banner and in /v1/health that the weather is synthetic, and that loopback receivers are allowed', async () => {
    assert.match(stack.tail(400), /weather data: SYNTHETIC, from the feed simulator/);
    assert.match(stack.tail(400), /webhooks: callbacks may reach 127\.0\.0\.1\/32, ::1\/128 although private/);
    const health = await api.expect(200, 'GET', '/v1/health');
    assert.match(String(health.body.dataSource), /SYNTHETIC/);
  });

  it('has precipitation of the last hour and a forecast for Ankara within 2 minutes of `npm start`', async () => {
    const precipitations = await eventually(
      async () => {
        const answer = await api.expect(200, 'POST', '/v1/precipitations/page', { token: adminToken, body: lastHour() });
        return answer.body.totalRecords > 0 ? answer.body : undefined;
      },
      'a precipitation record of the last hour',
      dataBudgetLeft(),
    );
    measured('start -> first precipitation record', sinceStart());
    assert.ok(precipitations.precipitations.length > 0);
    const forecast = await eventually(
      async () => {
        const answer = await api.call('POST', '/v1/forecasts/current', {
          token: adminToken,
          body: { location: ANKARA, metrics: ['TEMPERATURE', 'PRECIPITATION'], forecastDays: 1 },
        });
        return answer.status === 200 ? answer.body : undefined;
      },
      'a forecast for Ankara',
      dataBudgetLeft(),
    );
    measured('start -> current forecast for Ankara', sinceStart());
    assert.equal(forecast.model, 'stormhook-sim', 'the forecast names the synthetic model');
    assertValues(forecast, ['TEMPERATURE', 'PRECIPITATION']);
  });

  it('answers every other data operation with synthetic data within the same 2 minutes, ids saying so', async () => {
    // The simulator's backfill publishes the feeds side by side; a thunderstorm, or the demo storm's rain,
    // may reach the read model a moment after the first precipitation, so they get the same budget.
    const storms = await eventually(
      async () => {
        const answer = await api.expect(200, 'POST', '/v1/thunderstorms/page', { token: adminToken, body: lastHour() });
        return answer.body.totalRecords > 0 ? (answer.body.thunderstorms as Array<{ eventId: string }>) : undefined;
      },
      'the demo thunderstorm listed',
      dataBudgetLeft(),
    );
    const within = await eventually(
      async () => {
        const answer = await api.expect(200, 'POST', '/v1/precipitations/within', {
          token: adminToken,
          body: { center: ANKARA, radius: 30_000, ...lastHour() },
        });
        const demo = (answer.body.precipitations as Array<{ eventId: string }>).filter((p) => DEMO_STORM_PRECIPITATION.test(p.eventId));
        return demo.length > 0 ? { all: answer.body.precipitations as Array<{ eventId: string }>, demo } : undefined;
      },
      "the demo storm's rain within 30 km of Ankara",
      dataBudgetLeft(),
    );
    const listed = await api.expect(200, 'POST', '/v1/precipitations/page', { token: adminToken, body: lastHour() });
    const precipitations = listed.body.precipitations as Array<{ eventId: string }>;
    // This stack's broker gets nothing but the simulator's feed: every record must say it is synthetic.
    for (const { eventId } of [...precipitations, ...within.all]) assert.match(eventId, SYNTHETIC_PRECIPITATION);
    for (const { eventId } of storms) assert.match(eventId, SYNTHETIC_THUNDERSTORM);

    const storm = storms[0]!;
    const got = await api.expect(200, 'POST', '/v1/thunderstorms/get', { token: adminToken, body: { eventId: storm.eventId } });
    assert.equal(got.body.eventId, storm.eventId);
    assert.equal(typeof got.body.cell?.centroid?.lat, 'number', JSON.stringify(got.body).slice(0, 300));

    // The administrator may ask for the whole geometry (no centre and radius); one feature per event asked for.
    const event = within.demo[0]!.eventId;
    const geometry = await api.expect(200, 'POST', '/v1/precipitations/geometry', { token: adminToken, body: { eventIds: [event] } });
    const collection = queryV1.PrecipitationFeatureCollection.decode(Buffer.from(String(geometry.body), 'base64'));
    assert.deepEqual(
      collection.features.map((f) => f.id),
      [event],
    );
    const vertices = (collection.features[0]?.geometry?.multiPolygon?.polygons ?? []).flatMap((p) => p.rings.flatMap((r) => r.coordinates));
    assert.ok(vertices.length >= 4, `a polygon, got ${vertices.length} vertices`);

    const hourly = await api.expect(200, 'POST', '/v1/forecasts/hourly', {
      token: adminToken,
      body: { location: ANKARA, metrics: ['TEMPERATURE', 'WIND_SPEED'], forecastDays: 1 },
    });
    assert.equal(hourly.body.model, 'stormhook-sim');
    assertValues(hourly.body, ['TEMPERATURE', 'WIND_SPEED']);
    const daily = await api.expect(200, 'POST', '/v1/forecasts/daily', {
      token: adminToken,
      body: { location: ANKARA, metrics: ['TEMPERATURE_MAX', 'TEMPERATURE_MIN', 'PRECIPITATION'], forecastDays: 2 },
    });
    assert.equal(daily.body.model, 'stormhook-sim');
    assertValues(daily.body, ['TEMPERATURE_MAX', 'TEMPERATURE_MIN', 'PRECIPITATION'], 2);
    measured('start -> every data operation answered with data', sinceStart());
    assert.ok(Date.now() <= startedAtMs + DATA_BUDGET_MS, `all data answered ${sinceStart()} after the start, over the 2-minute budget`);
  });

  /** A new customer of the Ankara region registers a point alarm calling `receiver`, as the README shows; answers when. */
  async function registerPoint(receiver: WebhookReceiver, recipientId: string, boundary: object, filter: object): Promise<number> {
    const customer = await createCustomer(api, adminToken, { geoBoundary: { country: 'TUR', region: 'Ankara' } });
    const registeredAt = Date.now();
    await api.expect(200, 'POST', '/v1/alarms/points/register', {
      token: customer.token,
      body: { recipientId, boundary, webhook: fullWebhook(receiver.url), filter },
    });
    return registeredAt;
  }

  it('calls back a point alarm over the simulated storm within 5 minutes, typed and versioned', async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const registeredAt = await registerPoint(receiver, 'first-start', { point: ANKARA, radius: 20_000 }, { lightning: {} });
      const call = await receiver.waitFor(
        (calls) => calls.find((c) => JSON.parse(c.body).type === 'lightning.strike'),
        'a lightning callback',
        CALLBACK_BUDGET_MS,
      );
      // Valid against the schema of its type in the OpenAPI this gateway serves, the type as its header.
      const schemas = await CallbackSchemas.served(stack.baseUrl);
      const payload = schemas.assertSound(call);
      assert.equal(call.headers['webhook-event-type'], 'lightning.strike');
      assert.equal(payload['payloadVersion'], 2);
      assert.match(String(payload['strikeId']), /^sim\d+-demo/, 'a strike of the synthetic demo storm');
      assert.ok(['FLASH_CLOUD_TO_GROUND', 'FLASH_IN_CLOUD'].includes(String(payload['dischargeType'])));
      for (const other of receiver.calls) schemas.assertSound(other);
      measured('register -> first callback', `${((call.receivedAtMs - registeredAt) / 1000).toFixed(1)} s`);
      measured('start -> first callback', sinceStart(call.receivedAtMs));
    } finally {
      await receiver.stop();
    }
  });

  it("warns of a demo cell heading for Polatlı and then starts it, within 5 minutes of `npm start` (the README's warning example)", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const registeredAt = await registerPoint(
        receiver,
        'first-warning',
        { point: POLATLI, radius: 5_000 },
        { thunderstorm: { intersectsCellPolygon: true, approach: { leadMinutes: 30 } } },
      );
      const bodyOf = (call: { body: string }) => JSON.parse(call.body) as Record<string, unknown>;
      // One cell's APPROACHING, then the START of that same cell (a cell already inside at registration starts without a warning).
      const seen = () =>
        receiver.calls
          .map((c) => bodyOf(c))
          .map((b) => `${String(b['type'])} ${String(b['eventId'])} observed ${String(b['timestamp'])}`)
          .join('; ');
      const [warning, start] = await receiver
        .waitFor(
          (calls) => {
            for (const call of calls) {
              if (bodyOf(call)['type'] !== 'thunderstorm.start') continue;
              const warned = calls.find((c) => bodyOf(c)['type'] === 'thunderstorm.approaching' && bodyOf(c)['eventId'] === bodyOf(call)['eventId']);
              if (warned) return [warned, call] as const;
            }
            return undefined;
          },
          'an APPROACHING and then the START of the same cell',
          Math.max(1_000, startedAtMs + CALLBACK_BUDGET_MS - Date.now()),
        )
        .catch((error: Error) => {
          throw new Error(`${error.message} at ${new Date().toISOString()}: ${seen()}`);
        });
      const schemas = await CallbackSchemas.served(stack.baseUrl);
      const warned = schemas.assertSound(warning);
      schemas.assertSound(start);
      assert.ok(warning.receivedAtMs <= start.receivedAtMs, 'the warning came first');
      assert.match(String(warned['eventId']), /^sim\d+-approach/, 'a cell of the approach demo');
      const eta = warned['eta'] as Record<string, unknown>;
      assert.ok((eta['leadMinutes'] as number) > 0 && (eta['leadMinutes'] as number) <= 30, `lead ${String(eta['leadMinutes'])} min`);
      assert.equal((eta['motion'] as Record<string, unknown>)['source'], 'FEED');
      measured('register -> APPROACHING', `${((warning.receivedAtMs - registeredAt) / 1000).toFixed(1)} s`);
      measured('APPROACHING: cell observed -> received', `${((warning.receivedAtMs - (eta['issuedEpochMillis'] as number)) / 1000).toFixed(1)} s`);
      measured('start -> START after the warning', sinceStart(start.receivedAtMs));
      assert.ok(start.receivedAtMs <= startedAtMs + CALLBACK_BUDGET_MS, `START ${sinceStart(start.receivedAtMs)} after npm start`);
    } finally {
      await receiver.stop();
    }
  });

  it('sends the password reset e-mail and the phone activation SMS on a default start, to the outbox it names', async () => {
    const customer = await createCustomer(api, adminToken);
    await api.expect(202, 'POST', '/v1/users/password-reset-request', {
      body: { username: customer.username, resetPageLink: 'http://localhost:3000/reset-password' },
    });
    const phone = `+90532${String(Date.now()).slice(-7)}`;
    await api.expect(200, 'PATCH', '/v1/accounts/update', { token: customer.token, body: { accountId: customer.accountId, mobilePhoneNumber: phone } });
    const sms = await api.expect(200, 'POST', '/v1/accounts/phone-number-activation-request', {
      token: customer.token,
      body: { userId: customer.userId, accountId: customer.accountId, phoneNumberActivationPageLink: `${stack.baseUrl}/activate` },
    });
    assert.equal(sms.body.smsSent, true);
    // The README's path; the terminal names it when a message is written.
    const outbox = join(repoRoot, '.stack', 'data', 'notifier-outbox', 'messages.jsonl');
    await eventually(
      async () => /written to the development outbox: \S+messages\.jsonl/.test(stack.tail(400)) || undefined,
      'the outbox path in the terminal',
      30_000,
    );
    await eventually(
      async () => {
        if (!existsSync(outbox)) return undefined;
        const lines = readFileSync(outbox, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((l) => JSON.parse(l) as { recipient: string; channel: string });
        const mail = lines.some((m) => m.recipient === customer.username && m.channel === 'email');
        const text = lines.some((m) => m.recipient === phone && m.channel === 'sms');
        return mail && text ? true : undefined;
      },
      'the reset e-mail and the activation SMS in the outbox',
      30_000,
    );
  });

  it('accepts the role under `roles`, as the User resource names it', async () => {
    const created = await api.expect(201, 'POST', '/v1/users/create', {
      token: adminToken,
      body: { username: `roles-${instance}@e2e.example.com`, firstName: 'R', lastName: 'S', roles: 'API_USER', password: 'first-start-pw-1' },
    });
    assert.equal(created.body.roles, 'API_USER');
  });
});

/** Every asked metric answered, in order, each with at least `minValues` values and every one a number. */
function assertValues(forecast: { metricForecasts: Array<{ metric: string; forecasts: Array<{ value: number | null }> }> }, metrics: string[], minValues = 1) {
  assert.deepEqual(
    forecast.metricForecasts.map((m) => m.metric),
    metrics,
  );
  for (const { metric, forecasts } of forecast.metricForecasts) {
    assert.ok(forecasts.length >= minValues && forecasts.every((v) => typeof v.value === 'number'), `${metric}: ${JSON.stringify(forecasts.slice(0, 3))}`);
  }
}
