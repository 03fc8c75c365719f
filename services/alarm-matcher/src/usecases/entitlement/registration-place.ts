import type { ResolvedLocation } from '@stormhook/access';
import type { Registration } from '../../domain/registration.js';
import type { GeoPort } from '../../ports/geo-port.js';

/**
 * Where a registration lies for the plan's geography, judged as when it was written: the city of a
 * geometry or forecast alarm (its region), the city under a point alarm's centre. Undefined when geo
 * does not know the area (nor a country under the point). Throws DependencyUnavailableError when geo does not answer.
 */
export async function placeOf(registration: Registration, geo: Pick<GeoPort, 'city' | 'resolvePoint'>): Promise<ResolvedLocation | undefined> {
  if (registration.kind === 'POINT') {
    const at = await geo.resolvePoint(registration.circle.point);
    // No country: not known (rather than outside), as for an unknown city; written registrations had one.
    return at.countryCode ? { country: at.countryCode, ...(at.city ? { region: at.city.name } : {}) } : undefined;
  }
  const cityId = registration.kind === 'GEOMETRY' ? registration.area.cityId : registration.resolved.cityId;
  const city = await geo.city(cityId);
  return city?.countryCode ? { country: city.countryCode, region: city.name } : undefined;
}

/**
 * {@link placeOf} with the cities remembered: geometry and forecast alarms name some 81 provinces,
 * so a start with 100,000 of them costs 81 geo calls, not 100,000. Point alarms are resolved each.
 */
export function placeResolver(geo: Pick<GeoPort, 'city' | 'resolvePoint'>): (registration: Registration) => Promise<ResolvedLocation | undefined> {
  const cities = new Map<number, Promise<Awaited<ReturnType<GeoPort['city']>>>>();
  const cached: Pick<GeoPort, 'city' | 'resolvePoint'> = {
    city: (id) => {
      let found = cities.get(id);
      if (!found) {
        found = geo.city(id);
        cities.set(id, found);
        // A failed lookup is asked again next time.
        found.catch(() => cities.delete(id));
      }
      return found;
    },
    resolvePoint: (point) => geo.resolvePoint(point),
  };
  return (registration) => placeOf(registration, cached);
}
