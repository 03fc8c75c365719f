import { API_LIMITS } from '@stormhook/limits';
import type { commonV1 } from '@stormhook/proto';

/**
 * The limits of interface.md section 8 (and the incumbent's for the operations the contract does
 * not list), checked again here: the gateway validates first, but the gRPC API is a boundary too.
 * Messages name the public field.
 */
export const LIMITS = API_LIMITS;

export class Problems {
  readonly list: string[] = [];

  check(ok: boolean, message: string): void {
    if (!ok) this.list.push(message);
  }
}

export function checkWindow(p: Problems, endEpochMs: number, backwardIntervalS: number, bounds: { min: number; max: number }): void {
  p.check(Number.isInteger(endEpochMs) && endEpochMs >= 0, 'endTimeEpoch must be an integer of at least 0 (epoch milliseconds)');
  p.check(
    Number.isInteger(backwardIntervalS) && backwardIntervalS >= bounds.min && backwardIntervalS <= bounds.max,
    `backwardInterval must be between ${bounds.min} and ${bounds.max} (seconds)`,
  );
}

export function checkPage(p: Problems, page: commonV1.PageRequest | null | undefined): { offset: number; size: number } {
  const number = page?.pageNumber ?? 0;
  const size = page?.pageSize ?? 0;
  p.check(Number.isInteger(number) && number >= 0, 'pageNumber must be at least 0');
  p.check(Number.isInteger(size) && size >= 1 && size <= LIMITS.pageSizeMax, `pageSize must be between 1 and ${LIMITS.pageSizeMax}`);
  return { offset: number * size, size };
}

export function checkPoint(p: Problems, field: string, point: commonV1.GeoPoint | null | undefined): point is commonV1.GeoPoint {
  const ok = !!point && Number.isFinite(point.lat) && Number.isFinite(point.lng) && Math.abs(point.lat) <= 90 && Math.abs(point.lng) <= 180;
  p.check(ok, `${field} must be a point with lat in -90..90 and lng in -180..180`);
  return ok;
}
