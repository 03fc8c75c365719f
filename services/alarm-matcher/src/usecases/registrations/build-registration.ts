import type { Registration } from '../../domain/registration.js';
import type { WellFormedDraft } from '../../domain/validate-draft.js';
import type { BoundaryFacts } from './boundary-check.js';

export interface Identity {
  registrationId: string;
  accountId: string;
  createdAtMs: number;
  updatedAtMs: number;
  version: number;
}

/** The registration to store (or to back-test) from a validated input and what geo said about its boundary. */
export function buildRegistration(input: WellFormedDraft, facts: BoundaryFacts, identity: Identity, warnings: string[]): Registration {
  const base = { ...identity, recipientId: input.recipientId, warnings };
  switch (input.kind) {
    case 'GEOMETRY':
      return { ...base, kind: 'GEOMETRY', area: input.area, filter: input.filter };
    case 'POINT':
      return { ...base, kind: 'POINT', circle: input.circle, filter: input.filter };
    case 'FORECAST': {
      if (!facts.resolved) throw new Error('a forecast boundary is always resolved by checkBoundary');
      return {
        ...base,
        kind: 'FORECAST',
        boundary: input.boundary,
        filter: input.filter,
        forecastDays: input.forecastDays,
        delivery: input.delivery,
        resolved: facts.resolved,
        ...(facts.resolvedCell ? { resolvedCell: facts.resolvedCell } : {}),
      };
    }
  }
}
