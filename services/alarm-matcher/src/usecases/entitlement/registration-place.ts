import type { ResolvedLocation } from '@stormhook/access';
import type { Registration } from '../../domain/registration.js';
import type { GeoPort } from '../../ports/geo-port.js';

/**
 * Where a registration lies for the plan's geography, judged as when it was written: the city of a
 * geometry or forecast alarm (its region), the city under a point alarm's centre. Undefined when geo
 * does not know the area (nor a country under the point). Throws DependencyUnavailableError when geo does not answer.
 */
export async function placeOf(registration: Registration, geo: GeoPort): Promise<ResolvedLocation | undefined> {
  if (registration.kind === 'POINT') {
    const at = await geo.resolvePoint(registration.circle.point);
    // No country: not known (rather than outside), as for an unknown city; written registrations had one.
    return at.countryCode ? { country: at.countryCode, ...(at.city ? { region: at.city.name } : {}) } : undefined;
  }
  const cityId = registration.kind === 'GEOMETRY' ? registration.area.cityId : registration.resolved.cityId;
  const city = await geo.city(cityId);
  return city?.countryCode ? { country: city.countryCode, region: city.name } : undefined;
}
