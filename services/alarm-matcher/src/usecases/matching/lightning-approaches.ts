import { approachStage, decideRingStrike, LIGHTNING_APPROACH_EVENT, type RingTrail } from '../../lifecycle/lightning-approach.js';
import { notificationId } from '../../lifecycle/notification-id.js';
import type { RingMatch } from '../../matching/approach-ring.js';
import type { Strike } from '../../matching/weather-events.js';
import { lightningApproachingPayload } from '../../payloads/lightning-payload.js';
import type { Notification } from '../../payloads/notification.js';
import { addresseeOf } from './addressee.js';
import type { LightningEpisodes } from './lightning-episodes.js';

const TRAIL_PRUNE_INTERVAL_MS = 10 * 60_000;
/** A trail older than this belongs to an episode long ended (episodes end after a quiet period of minutes). */
const TRAIL_KEEP_MS = 24 * 60 * 60_000;

/**
 * The `lightning.approaching` notices of the registrations whose approach ring a strike fell in.
 * Ring episodes are stored like the episodes inside areas (`ringEpisodes`, written when one opens),
 * so the notice's id (its episode's first strike) survives a restart; the distance trail behind
 * `closing` is this instance's memory only: after a restart the next two ring strikes rebuild it.
 */
export class LightningApproaches {
  private readonly trails = new Map<string, RingTrail>();
  private prunedAtMs = 0;

  constructor(
    private readonly deps: {
      /** Episodes of strikes inside the areas: a registration with lightning already inside hears no approach. */
      areaEpisodes: LightningEpisodes;
      ringEpisodes: LightningEpisodes;
    },
  ) {}

  async strike(matches: readonly RingMatch[], strike: Strike): Promise<Notification[]> {
    const { areaEpisodes, ringEpisodes } = this.deps;
    this.prune(strike.timeMs);
    const outside = matches.filter((m) => !areaEpisodes.isOpenAt(m.registration.registrationId, strike.timeMs));
    if (outside.length === 0) return [];
    await ringEpisodes.strike(
      outside.map((m) => m.registration.registrationId),
      strike.timeMs,
    );
    const notifications: Notification[] = [];
    for (const { registration, distanceM } of outside) {
      const id = registration.registrationId;
      const episode = ringEpisodes.current(id);
      if (!episode) continue;
      const { next, notice } = decideRingStrike(this.trails.get(id), episode.firstStrikeMs, distanceM);
      this.trails.set(id, next);
      if (!notice) continue;
      const stage = approachStage(notice.episodeFirstMs);
      const nid = notificationId(LIGHTNING_APPROACH_EVENT, id, stage);
      notifications.push({
        notificationId: nid,
        addressee: addresseeOf(registration),
        eventKind: 'LIGHTNING',
        phase: 'APPROACHING',
        eventId: LIGHTNING_APPROACH_EVENT,
        stage,
        occurredAtMs: strike.timeMs,
        payload: lightningApproachingPayload({
          notificationId: nid,
          registrationId: id,
          recipientId: registration.recipientId,
          strike,
          notice,
          approachRadiusM: registration.filter.lightning!.approachRadiusM!,
        }),
      });
    }
    return notifications;
  }

  /** Drops trails of episodes long over (of registrations since gone, too), at most once per interval. */
  private prune(nowMs: number): void {
    if (nowMs - this.prunedAtMs < TRAIL_PRUNE_INTERVAL_MS) return;
    this.prunedAtMs = nowMs;
    for (const [id, trail] of this.trails) if (nowMs - trail.episodeFirstMs > TRAIL_KEEP_MS) this.trails.delete(id);
  }
}
