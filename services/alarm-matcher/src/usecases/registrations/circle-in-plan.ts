import { describeBoundaries, withinAny, type GeoBoundary } from '@stormhook/access';
import { direct } from '@stormhook/geometry';
import { fail, invalid, ok, unavailable, type Result } from '../../domain/errors.js';
import type { Circle, LatLng } from '../../domain/registration.js';
import type { CallBudget } from '../../ports/call-budget.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import type { EntitlementSource } from '../../ports/entitlement-source.js';
import type { GeoPort } from '../../ports/geo-port.js';

/** Points of the rim and of the half-radius ring that are resolved, besides the centre. */
const RIM_SAMPLES = 16;
const INNER_SAMPLES = 8;

/** The centre, the rim and a ring at half the radius: where the circle is looked at. */
export function circleSamples(circle: Circle): LatLng[] {
  const ring = (count: number, distanceM: number) =>
    Array.from({ length: count }, (_, i) => {
      const [lng, lat] = direct(circle.point.lng, circle.point.lat, (2 * Math.PI * i) / count, distanceM);
      return { lng, lat };
    });
  return [circle.point, ...ring(RIM_SAMPLES, circle.radiusM), ...ring(INNER_SAMPLES, circle.radiusM / 2)];
}

export interface CircleInPlanDeps {
  geo: GeoPort;
  owners: EntitlementSource;
}

/**
 * A point alarm's circle must not reach land outside the plan's regions: the gateway checks only the
 * centre, and a 200 km radius would otherwise watch several provinces the plan does not cover.
 * Rejected at registration (400 naming boundary.radius) rather than clipped: the caller learns at
 * once what the plan allows and can shrink the radius, while a clipped circle would silently watch
 * less than was asked. Points at sea (no country) are allowed: no region covers them, and coastal
 * cities' circles reach the sea. The circle is judged by its centre, rim and half-radius ring (25
 * points), which can miss a province narrower than the gap between two rim points (2π·r/16).
 * ADMIN owners pass, as in decideAccess; an owner without a plan is the gateway's 402 already.
 */
export async function checkCircleInPlan(circle: Circle, accountId: string, deps: CircleInPlanDeps, budget?: CallBudget): Promise<Result<void>> {
  try {
    const owner = await deps.owners.ownerOf(accountId);
    const boundaries: GeoBoundary[] | undefined = owner?.role === 'ADMIN' ? undefined : owner?.account?.subscription.geographicBoundaries;
    if (!boundaries) return ok(undefined);
    const places = await Promise.all(circleSamples(circle).map((point) => deps.geo.resolvePoint(point, budget)));
    const outside = places.find(
      (at) => at.countryCode !== '' && !withinAny({ country: at.countryCode, ...(at.city ? { region: at.city.name } : {}) }, boundaries),
    );
    if (!outside) return ok(undefined);
    const { country, region } = describeBoundaries(boundaries);
    const where = outside.city ? `${outside.city.name} (${outside.countryCode})` : outside.countryCode;
    return fail(
      invalid(
        'boundary.radius',
        `reaches ${where}, outside the geographic boundaries allowed in your subscription [${country}, ${region}]; choose a smaller radius or a point farther inside`,
      ),
    );
  } catch (error) {
    if (error instanceof DependencyUnavailableError) {
      return fail(unavailable(error.dependency, `The ${error.dependency} service is unavailable; try again shortly`));
    }
    throw error;
  }
}
