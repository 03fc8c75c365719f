import type { AdministrativeBoundary, RealtimeRegistration } from '../../domain/registration.js';
import type { Grid } from '../../geometry/grid.js';
import { PreparedCircle } from '../../geometry/prepared-circle.js';
import { PreparedPolygon } from '../../geometry/prepared-polygon.js';
import type { WatchedArea } from '../../matching/registration-index.js';
import { areaRefKey, type AreaRef, type GeoPort } from '../../ports/geo-port.js';

/** The area a geometry alarm watches: its most specific id. */
export function areaRefOf(area: AdministrativeBoundary): AreaRef {
  if (area.neighborhoodId !== undefined) return { level: 'NEIGHBOURHOOD', id: area.neighborhoodId };
  if (area.districtId !== undefined) return { level: 'DISTRICT', id: area.districtId };
  return { level: 'CITY', id: area.cityId };
}

/**
 * Administrative boundaries fetched from geo once and kept prepared: a few thousand areas at most,
 * and boundaries change only with a new geo import (a restart picks that up).
 */
export class AreaShapes {
  private readonly prepared = new Map<string, PreparedPolygon>();

  constructor(
    private readonly geo: GeoPort,
    private readonly grid: Grid,
  ) {}

  get(ref: AreaRef): PreparedPolygon | undefined {
    return this.prepared.get(areaRefKey(ref));
  }

  /** Fetches the boundaries not held yet; throws DependencyUnavailableError when geo does not answer. */
  async ensure(refs: readonly AreaRef[]): Promise<void> {
    const missing = new Map<string, AreaRef>();
    for (const ref of refs) {
      const key = areaRefKey(ref);
      if (!this.prepared.has(key)) missing.set(key, ref);
    }
    if (missing.size === 0) return;
    const found = await this.geo.polygons([...missing.values()]);
    for (const [key, multi] of found) this.prepared.set(key, new PreparedPolygon(multi, this.grid));
  }

  /** The watched area of a registration, or undefined while its boundary is not loaded. */
  watchedArea(registration: RealtimeRegistration): WatchedArea | undefined {
    if (registration.kind === 'POINT') {
      const { point, radiusM } = registration.circle;
      return { key: `circle:${point.lat.toFixed(6)},${point.lng.toFixed(6)}:${radiusM}`, shape: new PreparedCircle([point.lng, point.lat], radiusM) };
    }
    const ref = areaRefOf(registration.area);
    const shape = this.get(ref);
    return shape ? { key: areaRefKey(ref), shape } : undefined;
  }
}
