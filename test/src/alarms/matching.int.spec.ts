import assert from 'node:assert/strict';
import { EventTypes, TopicNames } from '@stormhook/kafka';
import { weatherV1, type DeepPartial } from '@stormhook/proto';
import { CallbackSchemas } from '../support/callback-schemas.js';
import { ANKARA, KECIOREN, KIZILAY, Receiver, eventually, fullWebhook, startAlarmStack, type AlarmStack, type TestUser } from './support.js';

/** Metres per degree of latitude (spherical Earth, as close as these assertions need). */
const M_PER_DEG_LAT = 111_195;

let strikes = 0;
function strike(lat: number, lng: number, overrides: DeepPartial<weatherV1.LightningEvent> = {}): weatherV1.LightningEvent {
  const n = ++strikes;
  return weatherV1.LightningEvent.create({
    eventId: `ltg_alarms_it_${n}_${Date.now()}`,
    sourceEventId: `alarms-it-${n}`,
    revision: { revision: 1, ingestedEpochMs: Date.now() },
    // Partition key: every strike of the test on one partition, so they are matched in order.
    areaKey: 'sxk',
    timeEpochMs: Date.now(),
    type: 'LIGHTNING_TYPE_FLASH_CLOUD_TO_GROUND',
    location: { lng, lat },
    peakCurrentAmperes: -15_000,
    multiplicity: 1,
    ...overrides,
  });
}

/**
 * One match end to end: a point alarm registered through the gateway, a weather.lightning.v1 event
 * published on the real broker under the test's topic prefix, the alarm-matcher's AlarmTriggered,
 * and the notifier's webhook call arriving at a local receiver with the stored webhook's settings.
 */
describe('alarm matching end to end (gateway, Kafka, matcher, notifier, receiver)', function () {
  this.timeout(120_000);
  let stack: AlarmStack;
  let user: TestUser;
  const receiver = new Receiver();
  let pointId = '';
  let schemas: CallbackSchemas;

  before(async () => {
    stack = await startAlarmStack();
    schemas = await CallbackSchemas.served(stack.baseUrl);
    await receiver.start();
    user = await stack.user('API_USER');
    const point = await stack.call('POST', '/v1/alarms/points/register', {
      token: user.token,
      body: {
        recipientId: 'asset-kizilay',
        boundary: { point: KIZILAY, radius: 5_000 },
        webhook: fullWebhook(receiver.url('/alarms')),
        filter: { lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrent: 10_000 } },
      },
    });
    assert.equal(point.status, 200, JSON.stringify(point.body));
    pointId = point.body['registrationId'];
    // A geometry alarm on Keçiören, north of the circle: the first test's strikes (Altındağ, Çankaya) do not touch it.
    const district = await stack.call('POST', '/v1/alarms/geometries/register', {
      token: user.token,
      body: {
        recipientId: 'district-kecioren',
        boundary: { cityId: ANKARA, districtId: KECIOREN },
        webhook: { accountId: user.accountId },
        filter: { lightning: {} },
      },
    });
    assert.equal(district.status, 200, JSON.stringify(district.body));
  });
  after(async () => {
    await receiver.stop();
    await stack?.stop();
  });

  it('delivers one webhook for the strike inside the radius that passes the filter, and none for the others', async () => {
    const north = (metres: number) => KIZILAY.lat + metres / M_PER_DEG_LAT;
    const weak = strike(north(1_000), KIZILAY.lng, { peakCurrentAmperes: -9_999 }); // inside, just below 10 kA
    const outside = strike(north(-5_300), KIZILAY.lng, { peakCurrentAmperes: -40_000 }); // 300 m beyond the radius, south (Çankaya)
    const inCloud = strike(north(1_000), KIZILAY.lng, { type: 'LIGHTNING_TYPE_FLASH_IN_CLOUD', inCloudHeightM: 4_000 }); // wrong type
    const hit = strike(north(2_000), KIZILAY.lng, { peakCurrentAmperes: -10_000 }); // inside, at the threshold
    // Published last on the same partition: when its webhook arrives, the others have been matched too.
    await stack.matcher.platform.publisher.publish(
      TopicNames.WeatherLightning,
      [weak, outside, inCloud, hit].map((event) => ({
        key: event.areaKey,
        value: weatherV1.LightningEvent.encode(event),
        eventType: EventTypes.LightningEvent,
        eventId: `evt_${event.eventId}`,
      })),
    );

    const callback = await eventually(() => receiver.received[0], 30_000, 'the webhook call');
    await new Promise((resolve) => setTimeout(resolve, 1_000)); // room for a wrong second call to show up
    assert.equal(receiver.received.length, 1, JSON.stringify(receiver.received.map((c) => c.body)));

    // The stored webhook's settings: method, path, headers and Basic credentials.
    assert.equal(callback.method, 'POST');
    assert.equal(callback.url, '/alarms');
    assert.equal(callback.headers['content-type'], 'application/json');
    assert.equal(callback.headers['x-tenant'], 'acme');
    assert.equal(callback.headers['authorization'], `Basic ${Buffer.from('ops:hook-secret-1').toString('base64')}`);
    assert.match(String(callback.headers['webhook-signature']), /^v1,/);

    // What the notifier really sent matches the schema the served OpenAPI publishes for its type.
    const payload = schemas.assertSound(callback);
    assert.equal(payload['id'], callback.headers['webhook-id'], 'the payload id is the notification id');
    assert.equal(payload['registrationId'], pointId);
    assert.equal(payload['recipientId'], 'asset-kizilay');
    assert.equal(payload['stage'], 'START');
    assert.equal(payload['eventId'], hit.eventId);
    assert.equal(payload['strikeId'], hit.sourceEventId);
    assert.equal(payload['type'], 'lightning.strike');
    assert.equal(callback.headers['webhook-event-type'], 'lightning.strike', 'the event type is a header too');
    assert.equal(payload['dischargeType'], 'FLASH_CLOUD_TO_GROUND');
    assert.equal(payload['peakCurrent'], -10_000);
    assert.equal(payload['timeEpochMillis'], hit.timeEpochMs);
    assert.ok(Math.abs((payload['distance'] as number) - 2_000) < 20, `distance ${String(payload['distance'])} m`);

    // The delivery log of the account shows it as delivered.
    const delivery = await eventually(
      async () => {
        const read = await stack.call('GET', `/v1/deliveries/${String(payload['id'])}`, { token: user.token });
        return read.body['status'] === 'SUCCEEDED' ? read.body : undefined;
      },
      15_000,
      'the delivery to be marked SUCCEEDED',
    );
    assert.equal(delivery['registrationId'], pointId);
  });

  it('stops matching once the alarm is unregistered', async () => {
    assert.equal((await stack.call('DELETE', `/v1/alarms/points/unregister/${pointId}`, { token: user.token })).status, 204);
    const before = receiver.received.length;
    const hit = strike(KIZILAY.lat, KIZILAY.lng, { peakCurrentAmperes: -50_000 });
    // A marker strike in Keçiören (the geometry alarm) after it: its webhook shows the first was matched.
    const marker = strike(40.0, 32.83);
    await stack.matcher.platform.publisher.publish(
      TopicNames.WeatherLightning,
      [hit, marker].map((event) => ({
        key: event.areaKey,
        value: weatherV1.LightningEvent.encode(event),
        eventType: EventTypes.LightningEvent,
        eventId: `evt_${event.eventId}`,
      })),
    );
    const markerCall = await eventually(() => receiver.received.slice(before).find((c) => c.body.includes(marker.eventId)), 30_000, 'the marker webhook');
    assert.ok(markerCall);
    assert.equal(receiver.received.slice(before).filter((c) => c.body.includes(hit.eventId)).length, 0, 'no webhook for the unregistered alarm');
    for (const call of receiver.received) schemas.assertSound(call);
  });
});
