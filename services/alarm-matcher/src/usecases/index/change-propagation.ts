import type { Logger } from '@stormhook/logger';
import type { RegistrationChange, RegistrationEvents } from '../../ports/registration-events.js';
import type { RegistrationChangeSink } from '../registrations/registration-deps.js';
import type { RegistrationIndexer } from './registration-indexer.js';

/**
 * Applies a change to this instance's index at once (so matching sees it before the API call
 * returns), then broadcasts it to every instance. The change is already stored: a failed broadcast
 * is logged, not reported to the caller, and the other instances pick it up at their next
 * reconciliation.
 */
export class PropagatingChangeSink implements RegistrationChangeSink {
  constructor(
    private readonly indexer: RegistrationIndexer,
    private readonly events: RegistrationEvents,
    private readonly logger: Logger,
  ) {}

  async changed(change: RegistrationChange): Promise<void> {
    if (change.change === 'UNREGISTERED') await this.indexer.remove(change.registrationId, change.version);
    else await this.indexer.apply(change.registration);
    try {
      await this.events.publish(change);
    } catch (error) {
      this.logger.error(
        { err: error, change: change.change, registrationId: change.change === 'UNREGISTERED' ? change.registrationId : change.registration.registrationId },
        'registration change broadcast failed; other matcher instances catch up at their next reconciliation',
      );
    }
  }
}
