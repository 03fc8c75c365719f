import { distanceM } from '@stormhook/geometry';
import { fail, invalid, ok, unavailable, type Result } from '../../domain/errors.js';
import type { ResolvedAdministrative, ResolvedCell } from '../../domain/registration.js';
import type { WellFormedDraft } from '../../domain/validate-draft.js';
import type { CallBudget } from '../../ports/call-budget.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import type { ForecastStore } from '../../ports/forecast-store.js';
import type { GeoPort } from '../../ports/geo-port.js';

export interface BoundaryFacts {
  resolved?: ResolvedAdministrative;
  resolvedCell?: ResolvedCell;
  warnings: string[];
}

export interface BoundaryCheckDeps {
  geo: GeoPort;
  forecasts: ForecastStore;
  /** Farthest a POINT forecast alarm's grid cell may be, in metres. */
  maxCellDistanceM: number;
}

const GEO_DOWN = 'The administrative area service is unavailable; try again shortly';

async function geometryBoundary(input: Extract<WellFormedDraft, { kind: 'GEOMETRY' }>, geo: GeoPort, budget?: CallBudget): Promise<Result<BoundaryFacts>> {
  const { cityId, districtId, neighborhoodId } = input.area;
  const city = await geo.city(cityId, budget);
  if (!city) return fail(invalid('boundary.cityId', `is not a known city id: ${cityId}`));
  if (districtId !== undefined) {
    const district = await geo.district(districtId, budget);
    if (!district) return fail(invalid('boundary.districtId', `is not a known district id: ${districtId}`));
    if (district.city.id !== cityId) {
      return fail(
        invalid(
          'boundary.districtId',
          `${districtId} (${district.name}) is not a district of city ${cityId} (${city.name}); it lies in ${district.city.name} (${district.city.id})`,
        ),
      );
    }
  }
  if (neighborhoodId !== undefined) {
    const neighbourhood = await geo.neighbourhood(neighborhoodId, budget);
    if (!neighbourhood) return fail(invalid('boundary.neighborhoodId', `is not a known neighbourhood id: ${neighborhoodId}`));
    if (districtId !== undefined && neighbourhood.district.id !== districtId) {
      return fail(
        invalid(
          'boundary.neighborhoodId',
          `${neighborhoodId} (${neighbourhood.name}) is not in district ${districtId}; it lies in ${neighbourhood.district.name} (${neighbourhood.district.id})`,
        ),
      );
    }
    if (neighbourhood.district.city.id !== cityId) {
      return fail(
        invalid(
          'boundary.neighborhoodId',
          `${neighborhoodId} (${neighbourhood.name}) is not in city ${cityId}; it lies in ${neighbourhood.district.city.name} (${neighbourhood.district.city.id})`,
        ),
      );
    }
  }
  return ok({ warnings: [] });
}

async function forecastBoundary(
  input: Extract<WellFormedDraft, { kind: 'FORECAST' }>,
  deps: BoundaryCheckDeps,
  budget?: CallBudget,
): Promise<Result<BoundaryFacts>> {
  const boundary = input.boundary;
  if (boundary.type === 'ADMINISTRATIVE') {
    const city = await deps.geo.city(boundary.cityId, budget);
    if (!city) return fail(invalid('boundary.cityId', `is not a known city id: ${boundary.cityId}`));
    const district = await deps.geo.district(boundary.districtId, budget);
    if (!district) return fail(invalid('boundary.districtId', `is not a known district id: ${boundary.districtId}`));
    if (district.city.id !== boundary.cityId) {
      return fail(
        invalid(
          'boundary.districtId',
          `${boundary.districtId} (${district.name}) is not a district of city ${boundary.cityId} (${city.name}); it lies in ${district.city.name} (${district.city.id})`,
        ),
      );
    }
    return ok({ resolved: { cityId: city.id, cityName: city.name, districtId: district.id, districtName: district.name }, warnings: [] });
  }
  const at = await deps.geo.resolvePoint(boundary.point, budget);
  if (!at.city || !at.district) {
    return fail(invalid('boundary.point', 'lies in no district of Turkey or Northern Cyprus, where forecast alarms are evaluated'));
  }
  const warnings: string[] = [];
  const position = [boundary.point.lng, boundary.point.lat] as const;
  // Grid spacing is well under half a degree; a wider search finds nothing nearer anyway.
  let nearest: ResolvedCell | undefined;
  for (const cell of await deps.forecasts.near(position, 0.5)) {
    const d = distanceM(position, cell.location);
    if (d <= deps.maxCellDistanceM && (!nearest || d < nearest.distanceM)) {
      nearest = { cellId: cell.cellId, location: { lng: cell.location[0], lat: cell.location[1] }, distanceM: Math.round(d) };
    }
  }
  if (!nearest)
    warnings.push('no forecast grid cell is stored near boundary.point yet; the nearest cell of the latest forecast run is chosen at each evaluation');
  return ok({
    resolved: { cityId: at.city.id, cityName: at.city.name, districtId: at.district.id, districtName: at.district.name },
    ...(nearest ? { resolvedCell: nearest } : {}),
    warnings,
  });
}

async function pointBoundary(input: Extract<WellFormedDraft, { kind: 'POINT' }>, geo: GeoPort, budget?: CallBudget): Promise<Result<BoundaryFacts>> {
  const at = await geo.resolvePoint(input.circle.point, budget);
  const warnings =
    at.countryCode === '' ? ['boundary.point lies outside Turkey and Northern Cyprus; weather data covers only those countries and their coastal waters'] : [];
  return ok({ warnings });
}

/**
 * Checks a boundary against the geo service: unknown ids and a district outside the given city are
 * 400s naming the field; a POINT forecast boundary is resolved to its district and nearest grid cell.
 * The geo calls fit in `budget`, the API caller's remaining time.
 */
export async function checkBoundary(input: WellFormedDraft, deps: BoundaryCheckDeps, budget?: CallBudget): Promise<Result<BoundaryFacts>> {
  try {
    switch (input.kind) {
      case 'GEOMETRY':
        return await geometryBoundary(input, deps.geo, budget);
      case 'FORECAST':
        return await forecastBoundary(input, deps, budget);
      case 'POINT':
        return await pointBoundary(input, deps.geo, budget);
    }
  } catch (error) {
    if (error instanceof DependencyUnavailableError) return fail(unavailable('geo', GEO_DOWN));
    throw error;
  }
}
