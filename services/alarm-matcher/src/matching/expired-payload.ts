import type { RealtimeRegistration } from '../domain/registration.js';
import type { CancelReason, EndReason } from '../lifecycle/tracked-event.js';
import type { WatchedArea } from './registration-index.js';
import { trackedEventType } from '../payloads/notification.js';
import { precipitationPayload } from '../payloads/precipitation-payload.js';
import { thunderstormPayload } from '../payloads/thunderstorm-payload.js';
import type { LastRevision, StoredTrackedState } from '../lifecycle/stored-tracked-state.js';

/**
 * The END (or cancellation of an APPROACHING) of an event that stopped being updated, rebuilt from
 * its last stored revision with the payload builders the live path uses: the same fields, the entry
 * and exit the last callback stated, no prediction. States written before the last revision was
 * stored carried their last payload instead; that is used as it was, with its type and stage set.
 */
export function expiredPayload(input: {
  id: string;
  registration: RealtimeRegistration;
  area: WatchedArea | undefined;
  state: StoredTrackedState;
  last: LastRevision | undefined;
  phase: 'END' | 'APPROACH_CANCELLED';
  reason: { endReason?: EndReason; cancelReason?: CancelReason };
}): Record<string, unknown> {
  const { id, registration, area, state, last, phase, reason } = input;
  const who = { notificationId: id, registrationId: registration.registrationId, recipientId: registration.recipientId };
  if (last && area) {
    if (last.kind === 'THUNDERSTORM') {
      const entryMs = state.entryMs ?? last.storm.observedMs;
      return thunderstormPayload({
        ...who,
        storm: last.storm,
        reference: area.shape.reference,
        phase,
        ...reason,
        entryMs,
        exitMs: state.exitMs ?? Math.max(entryMs, last.storm.endMs),
        eta: null,
      });
    }
    return precipitationPayload({ ...who, rain: last.rain, reference: area.shape.reference, phase, ...reason, eta: null });
  }
  const legacy = (state as StoredTrackedState & { lastPayload?: Record<string, unknown> }).lastPayload ?? {};
  return {
    ...legacy,
    type: trackedEventType(state.kind === 'THUNDERSTORM' ? 'thunderstorm' : 'precipitation', phase),
    id,
    stage: phase,
    ...reason,
    eta: null,
  };
}
