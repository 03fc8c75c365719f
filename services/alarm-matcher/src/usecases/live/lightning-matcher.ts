import { decideStrike, ringListeners, RingTrails, strikeCandidates, type LightningSettings, type LightningState } from '../../matching/lightning-core.js';
import { built, strikeNotices } from '../../matching/lightning-notices.js';
import type { RegistrationIndex } from '../../matching/registration-index.js';
import type { Strike } from '../../domain/weather-events.js';
import type { Notification } from '../../payloads/notification.js';
import type { Clock } from '../../ports/clock.js';
import type { NotificationDispatcher } from './dispatcher.js';
import type { LightningEpisodes } from './lightning-episodes.js';

/**
 * One lightning strike, live: the matching core (matching/lightning-core.ts) decides a START for every
 * matching registration (once per strike and registration, whatever the replays), the episodes for
 * all-clears and the approach rings' notices; this wrapper reads the stored episodes the strike
 * touches before, writes the ones it changed and dispatches the notifications after.
 */
export class LightningMatcher {
  private readonly state: LightningState;
  private readonly settings: LightningSettings;

  constructor(
    private readonly deps: {
      index: RegistrationIndex;
      /** Episodes of strikes inside the areas (all-clears; a registration with lightning inside hears no approach). */
      episodes: LightningEpisodes;
      /** Episodes of strikes in the approach rings (filter `approachRadius`): the approaching notices' ids survive a restart. */
      ringEpisodes: LightningEpisodes;
      dispatcher: NotificationDispatcher;
      clock: Clock;
      quietMs: number;
      /** Older strikes are not notified: nobody acts on lightning of hours ago. */
      maxAgeMs: number;
    },
  ) {
    this.state = { area: deps.episodes.book, ring: deps.ringEpisodes.book, trails: new RingTrails() };
    this.settings = { quietMs: deps.quietMs, persistEveryMs: deps.episodes.timing.persistEveryMs, maxAgeMs: deps.maxAgeMs };
  }

  async handle(strike: Strike): Promise<Notification[]> {
    const { index, episodes, ringEpisodes, dispatcher, clock } = this.deps;
    const candidates = strikeCandidates(index, strike, clock.now(), this.settings);
    if (!candidates) return [];
    if (candidates.recent) {
      // A strike is never both inside a registration's area and in its ring, so reading the area
      // episodes first cannot change who hears of the approach.
      await episodes.load(candidates.matches.map((m) => m.registration.registrationId));
      await ringEpisodes.load(ringListeners(candidates, this.state.area, this.settings.quietMs).map((m) => m.registration.registrationId));
    }
    // From the loads to the decision nothing awaits: strikes in flight at once each see the books as
    // the one before left them.
    const decision = decideStrike(candidates, this.state, this.settings);
    await Promise.all([ringEpisodes.persist(decision.ringSaves), episodes.persist(decision.areaSaves)]);
    return dispatcher.dispatch(strikeNotices(decision, this.settings.quietMs).map(built));
  }
}
