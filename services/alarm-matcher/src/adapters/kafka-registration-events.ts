import { publishOn, TopicNames, type Publisher } from '@stormhook/kafka';
import { alarmV1 } from '@stormhook/proto';
import type { RegistrationChange, RegistrationEvents } from '../ports/registration-events.js';
import { registrationToProto } from '../transport/registration-proto.js';

export function registrationChangedOf(change: RegistrationChange): alarmV1.RegistrationChanged {
  if (change.change === 'UNREGISTERED') {
    return alarmV1.RegistrationChanged.create({
      registrationId: change.registrationId,
      change: 'REGISTRATION_CHANGE_UNREGISTERED',
      version: change.version,
      changedAtEpochMs: change.changedAtMs,
    });
  }
  return alarmV1.RegistrationChanged.create({
    registrationId: change.registration.registrationId,
    change: change.change === 'REGISTERED' ? 'REGISTRATION_CHANGE_REGISTERED' : 'REGISTRATION_CHANGE_UPDATED',
    version: change.registration.version,
    registration: registrationToProto(change.registration),
    changedAtEpochMs: change.changedAtMs,
  });
}

/** Broadcasts registration changes on alarm.registration-changed.v1, keyed by registration id. */
export class KafkaRegistrationEvents implements RegistrationEvents {
  constructor(private readonly publisher: Publisher) {}

  async publish(change: RegistrationChange): Promise<void> {
    const message = registrationChangedOf(change);
    await publishOn(this.publisher, TopicNames.RegistrationChanged, [{ key: message.registrationId, message }]);
  }
}
