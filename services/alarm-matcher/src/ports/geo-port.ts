import type { MultiPolygon } from '@stormhook/geometry';
import type { LatLng } from '../domain/registration.js';
import type { CallBudget } from './call-budget.js';

export type AreaLevel = 'CITY' | 'DISTRICT' | 'NEIGHBOURHOOD';

export interface AreaRef {
  level: AreaLevel;
  id: number;
}

export function areaRefKey(ref: AreaRef): string {
  return `${ref.level}:${ref.id}`;
}

export interface NamedArea {
  id: number;
  name: string;
  /** ISO alpha-3 code of a city, when geo names it (the plan geography judges cities by it). */
  countryCode?: string;
}

export interface DistrictInfo extends NamedArea {
  city: NamedArea;
}

export interface NeighbourhoodInfo extends NamedArea {
  district: DistrictInfo;
}

export interface PointResolution {
  /** ISO alpha-3 code; '' outside every supported country. */
  countryCode: string;
  city?: NamedArea;
  district?: NamedArea;
}

/**
 * The administrative areas the matcher needs from the geo service. Unknown ids answer undefined;
 * an unreachable geo service throws DependencyUnavailableError.
 */
export interface GeoPort {
  /** `budget` on the lookups: the API caller's remaining time, which the call must fit in (see {@link CallBudget}). */
  city(id: number, budget?: CallBudget): Promise<NamedArea | undefined>;
  district(id: number, budget?: CallBudget): Promise<DistrictInfo | undefined>;
  neighbourhood(id: number, budget?: CallBudget): Promise<NeighbourhoodInfo | undefined>;
  resolvePoint(point: LatLng, budget?: CallBudget): Promise<PointResolution>;
  /** Boundaries of the areas, keyed by {@link areaRefKey}; unknown areas are left out. */
  polygons(refs: readonly AreaRef[]): Promise<Map<string, MultiPolygon>>;
}
