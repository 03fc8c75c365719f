import assert from 'node:assert/strict';
import { EventTypes, TopicNames } from '@stormhook/kafka';
import { weatherV1, type DeepPartial } from '@stormhook/proto';
import { KIZILAY, Receiver, eventually, fullWebhook, startAlarmStack, type AlarmStack, type TestUser } from './support.js';

/** Metres per degree of latitude (spherical Earth, as close as these assertions need). */
const M_PER_DEG_LAT = 111_195;
const north = (metres: number) => KIZILAY.lat + metres / M_PER_DEG_LAT;

let strikes = 0;
function strike(lat: number, overrides: DeepPartial<weatherV1.LightningEvent> = {}): weatherV1.LightningEvent {
  const n = ++strikes;
  const now = Date.now();
  return weatherV1.LightningEvent.create({
    eventId: `ltg_backtest_it_${n}_${now}`,
    sourceEventId: `backtest-it-${n}-${now}`,
    revision: { revision: 1, ingestedEpochMs: now },
    areaKey: 'sxk',
    timeEpochMs: now,
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    location: { lng: KIZILAY.lng, lat },
    peakCurrentAmperes: -15_000,
    multiplicity: 1,
    ...overrides,
  });
}

const POINT_BODY = {
  recipientId: 'asset-kizilay',
  boundary: { point: KIZILAY, radius: 5_000 },
  filter: { lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrent: 10_000 } },
};

type Json = Record<string, unknown>;

/**
 * The acceptance of issue 24 on the real stack: the live pipeline (gateway, Kafka, matcher, notifier,
 * receiver) runs over a window with a registration in place, query keeps the same weather in its
 * history, and the back-test of that registration over that window shows the same callbacks: the
 * same ids, types and stages, and bodies equal to what the receiver got apart from "simulation".
 */
describe('alarm back-test end to end (live callbacks against the back-test of the same window)', function () {
  this.timeout(180_000);
  let stack: AlarmStack;
  let user: TestUser;
  const receiver = new Receiver();
  let pointId = '';
  let fromMs = 0;

  before(async () => {
    // Polling the back-test until the history holds the window takes more than the hourly allowance of 20.
    stack = await startAlarmStack({}, { query: true, gatewayEnv: { GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR: '1000' } });
    await receiver.start();
    user = await stack.user('API_USER');
    const point = await stack.call('POST', '/v1/alarms/points/register', {
      token: user.token,
      body: { ...POINT_BODY, webhook: fullWebhook(receiver.url('/alarms')) },
    });
    assert.equal(point.status, 200, JSON.stringify(point.body));
    pointId = point.body['registrationId'];
    fromMs = Date.now() - 1_000;
  });
  after(async () => {
    await receiver.stop();
    await stack?.stop();
  });

  it('sends in the back-test exactly the callbacks the live path sent, marked simulation', async () => {
    const inside = [strike(north(1_000)), strike(north(2_500), { peakCurrentAmperes: 22_000 }), strike(north(-3_000))];
    const weak = strike(north(1_500), { peakCurrentAmperes: -9_000 });
    const outside = strike(north(6_000), { peakCurrentAmperes: -40_000 });
    await stack.matcher.platform.publisher.publish(
      TopicNames.WeatherLightning,
      [...inside, weak, outside].map((event) => ({
        key: event.areaKey,
        value: weatherV1.LightningEvent.encode(event),
        eventType: EventTypes.LightningEvent,
        eventId: `evt_${event.eventId}`,
      })),
    );
    await eventually(() => (receiver.received.length >= inside.length ? true : undefined), 30_000, 'the live callbacks');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // room for a wrong extra call to show up
    assert.equal(receiver.received.length, inside.length);
    const live = new Map(receiver.received.map((c) => [String(c.headers['webhook-id']), c.body]));

    // Query's history consumes the same topic on its own: ask until the window holds every strike.
    const answer = await eventually(
      async () => {
        const run = await stack.call('POST', '/v1/alarms/points/backtest', {
          token: user.token,
          body: { ...POINT_BODY, registrationId: pointId, from: fromMs, to: Date.now() },
        });
        assert.equal(run.status, 200, JSON.stringify(run.body));
        return run.body['callbacks'] === inside.length ? run.body : undefined;
      },
      60_000,
      'the back-test seeing the window',
    );
    assert.deepEqual(answer['byType'], [{ callbackType: 'lightning.strike', stage: 'START', callbacks: inside.length }]);
    const samples = answer['samples'] as Array<{ callbackType: string; payload: Json }>;
    assert.equal(samples.length, inside.length);
    for (const sample of samples) {
      const { simulation, ...body } = sample.payload;
      assert.equal(simulation, true);
      const sent = live.get(String(body['id']));
      assert.ok(sent !== undefined, `the live path sent no callback with id ${String(body['id'])}`);
      assert.deepEqual(body, JSON.parse(sent), 'the body the receiver got');
      assert.equal(JSON.stringify(body), sent, 'byte for byte');
    }
    const lightning = (answer['coverage'] as Array<{ dataKind: string; covered: unknown[] }>).find((c) => c.dataKind === 'LIGHTNING');
    assert.ok(lightning && lightning.covered.length > 0, JSON.stringify(answer['coverage']));
  });

  it('reports a kind with no data in the window as a gap of the whole window, and no callbacks', async () => {
    const to = Date.now();
    const run = await stack.call('POST', '/v1/alarms/points/backtest', {
      token: user.token,
      body: { ...POINT_BODY, filter: { thunderstorm: { severityThreshold: 'MEDIUM' } }, from: fromMs, to },
    });
    assert.equal(run.status, 200, JSON.stringify(run.body));
    assert.equal(run.body['callbacks'], 0);
    const storms = (run.body['coverage'] as Array<{ dataKind: string; covered: unknown[]; gaps: Array<{ from: number; to: number }> }>).find(
      (c) => c.dataKind === 'THUNDERSTORM',
    );
    assert.ok(storms, JSON.stringify(run.body['coverage']));
    assert.deepEqual(storms.covered, []);
    assert.deepEqual(storms.gaps, [{ from: run.body['from'], to: run.body['to'] }]);
  });

  it("answers 404 for a registrationId that is not one of the caller's registrations", async () => {
    const other = await stack.user('API_USER');
    const run = await stack.call('POST', '/v1/alarms/points/backtest', {
      token: other.token,
      body: { ...POINT_BODY, registrationId: pointId, from: fromMs, to: Date.now() },
    });
    assert.equal(run.status, 404, JSON.stringify(run.body));
  });
});
