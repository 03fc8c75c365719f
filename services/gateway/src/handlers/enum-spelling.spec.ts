import assert from 'node:assert/strict';
import { notificationV1 } from '@stormhook/proto';
import { deliveryJson, failureClassOrNull } from './deliveries-json.js';
import { intensityName } from '../json/weather-json.js';

// The public answers spell the services' enum values without their prefix; a value left unset keeps
// the spelling the answers always had (UNSPECIFIED, or null where the contract says null).
describe('enum spellings of the public answers', () => {
  const delivery = (status: notificationV1.DeliveryStatus, trigger: notificationV1.AttemptTrigger) =>
    deliveryJson(
      notificationV1.Delivery.create({ notificationId: 'n-1', status, attempts: [notificationV1.DeliveryAttempt.create({ attemptNumber: 1, trigger })] }),
      true,
    );

  it('drop the prefix of a set value', () => {
    const json = delivery('DELIVERY_STATUS_SUCCEEDED', 'ATTEMPT_TRIGGER_MANUAL');
    assert.equal(json.status, 'SUCCEEDED');
    assert.equal((json.attempts as Array<Record<string, unknown>>)[0]?.trigger, 'MANUAL');
    assert.equal(intensityName('PRECIPITATION_INTENSITY_VERY_HEAVY'), 'VERY_HEAVY');
    assert.equal(failureClassOrNull('WEBHOOK_FAILURE_CLASS_TIMEOUT'), 'TIMEOUT');
  });

  it('spell an unset value as before', () => {
    const json = delivery('DELIVERY_STATUS_UNSPECIFIED', 'ATTEMPT_TRIGGER_UNSPECIFIED');
    assert.equal(json.status, 'UNSPECIFIED');
    assert.equal((json.attempts as Array<Record<string, unknown>>)[0]?.trigger, 'UNSPECIFIED');
    assert.equal(intensityName('PRECIPITATION_INTENSITY_UNSPECIFIED'), 'UNSPECIFIED');
    assert.equal(failureClassOrNull('WEBHOOK_FAILURE_CLASS_UNSPECIFIED'), null);
  });
});
