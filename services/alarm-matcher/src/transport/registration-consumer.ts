import { EventTypes, Outcomes, type ConsumedRecord, type Handler, type Outcome } from '@stormhook/kafka';
import { alarmV1 } from '@stormhook/proto';
import type { RegistrationIndexer } from '../usecases/index/registration-indexer.js';
import { registrationFromProto } from './registration-proto.js';

/** Applies RegistrationChanged broadcasts to this instance's index (every instance reads them all). */
export function registrationChangeHandler(indexer: RegistrationIndexer): Handler {
  return async (record: ConsumedRecord): Promise<Outcome> => {
    if (record.headers.eventType !== EventTypes.RegistrationChanged) {
      return Outcomes.deadLetter(`event type ${record.headers.eventType} on ${record.topic}; expected ${EventTypes.RegistrationChanged}`);
    }
    let change: alarmV1.RegistrationChanged;
    try {
      change = alarmV1.RegistrationChanged.decode(record.value);
    } catch (error) {
      return Outcomes.deadLetter(`undecodable RegistrationChanged: ${(error as Error).message}`);
    }
    if (change.change === 'REGISTRATION_CHANGE_UNREGISTERED') {
      await indexer.remove(change.registrationId, change.version);
      return Outcomes.ok();
    }
    const registration = change.registration ? registrationFromProto(change.registration) : undefined;
    if (!registration) return Outcomes.deadLetter(`RegistrationChanged ${change.registrationId} carries no usable registration`);
    await indexer.apply(registration);
    return Outcomes.ok();
  };
}
