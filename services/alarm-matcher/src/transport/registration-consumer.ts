import { Outcomes, TopicNames, type ChannelHandlers } from '@stormhook/kafka';
import type { RegistrationIndexer } from '../usecases/index/registration-indexer.js';
import { registrationFromProto } from './registration-proto.js';

/** Applies RegistrationChanged broadcasts to this instance's index (every instance reads them all). */
export function registrationChangeHandlers(indexer: RegistrationIndexer): ChannelHandlers<typeof TopicNames.RegistrationChanged> {
  return {
    [TopicNames.RegistrationChanged]: async ({ message: change }) => {
      if (change.change === 'REGISTRATION_CHANGE_UNREGISTERED') {
        await indexer.remove(change.registrationId, change.version);
        return Outcomes.ok();
      }
      const registration = change.registration ? registrationFromProto(change.registration) : undefined;
      if (!registration) return Outcomes.deadLetter(`RegistrationChanged ${change.registrationId} carries no usable registration`);
      await indexer.apply(registration);
      return Outcomes.ok();
    },
  };
}
