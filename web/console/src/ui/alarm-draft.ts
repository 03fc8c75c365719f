import type { AdministrativeBoundary, AlarmFilter, GeoPoint, GeometryRegistration, LocatedAreas, PointRegistration } from '../api/types.js';

/** An alarm being made or edited: its area (an administrative boundary or a circle) and its filter. */
export type AlarmDraft =
  | { kind: 'geometry'; registrationId?: string; recipientId: string; boundary: AdministrativeBoundary; located?: LocatedAreas; filter: AlarmFilter }
  | { kind: 'point'; registrationId?: string; recipientId: string; point: GeoPoint; radius: number; filter: AlarmFilter };

export type Alarm = { kind: 'geometry'; registration: GeometryRegistration } | { kind: 'point'; registration: PointRegistration };

export const INTENSITIES = ['DRIZZLE', 'LIGHT', 'MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME'] as const;
export const SEVERITIES = ['', 'LOW', 'MEDIUM', 'HIGH'] as const;
export const LIGHTNING_TYPES = ['', 'FLASH_CLOUD_TO_GROUND', 'FLASH_IN_CLOUD'] as const;

/** A new alarm's filter: lightning and storms of any kind, rain from moderate up. */
export const DEFAULT_FILTER: AlarmFilter = {
  lightning: {},
  thunderstorm: {},
  precipitation: { intensities: ['MODERATE', 'HEAVY', 'VERY_HEAVY', 'EXTREME'] },
};

/** Point alarms: the contract's bounds of the radius, metres. */
export const MIN_RADIUS_M = 100;
export const MAX_RADIUS_M = 200_000;

/** The most specific area a click found, as a geometry alarm's boundary. */
export function boundaryAt(located: LocatedAreas, level: 'city' | 'district' | 'neighborhood'): AdministrativeBoundary | undefined {
  if (!located.city) return undefined;
  const boundary: AdministrativeBoundary = { type: 'ADMINISTRATIVE', cityId: located.city.id };
  if ((level === 'district' || level === 'neighborhood') && located.district) boundary.districtId = located.district.id;
  if (level === 'neighborhood' && located.district && located.neighborhood) boundary.neighborhoodId = located.neighborhood.id;
  return boundary;
}

export function draftOf(alarm: Alarm): AlarmDraft {
  const r = alarm.registration;
  if (alarm.kind === 'geometry') {
    return { kind: 'geometry', registrationId: r.registrationId, recipientId: r.recipientId, boundary: alarm.registration.boundary, filter: r.filter };
  }
  return {
    kind: 'point',
    registrationId: r.registrationId,
    recipientId: r.recipientId,
    point: alarm.registration.boundary.point,
    radius: alarm.registration.boundary.radius,
    filter: r.filter,
  };
}

/** The register / update / back-test body of a draft (webhook added by the caller where it is needed). */
export function bodyOf(draft: AlarmDraft): Record<string, unknown> {
  const boundary = draft.kind === 'geometry' ? { ...draft.boundary, type: 'ADMINISTRATIVE' } : { point: draft.point, radius: draft.radius };
  return { ...(draft.registrationId ? { registrationId: draft.registrationId } : {}), recipientId: draft.recipientId, boundary, filter: draft.filter };
}

export const kindPath = (kind: AlarmDraft['kind']): string => (kind === 'geometry' ? 'geometries' : 'points');

/** A line for the list: what the alarm listens for. */
export function filterSummary(filter: AlarmFilter): string {
  const parts: string[] = [];
  if (filter.lightning) {
    const amps = filter.lightning.peakCurrent ? ` ≥ ${Math.abs(filter.lightning.peakCurrent) / 1000} kA` : '';
    parts.push(`lightning${filter.lightning.type ? ` (${filter.lightning.type === 'FLASH_CLOUD_TO_GROUND' ? 'CG' : 'IC'})` : ''}${amps}`);
  }
  if (filter.thunderstorm) parts.push(`storms${filter.thunderstorm.severityThreshold ? ` ≥ ${filter.thunderstorm.severityThreshold}` : ''}`);
  if (filter.precipitation) {
    const i = filter.precipitation.intensities ?? [];
    parts.push(`rain${i.length > 0 && i.length < INTENSITIES.length ? ` ${i.join('/')}` : ''}`);
  }
  return parts.join(', ') || 'no filter';
}
