import type { LngLat } from '../domain/geo/types.js';
import { distanceKm } from './geo-math.js';

/** Provincial capitals spread over the region, for the place names a storm tracker reports. */
const CITIES: ReadonlyArray<{ name: string; country: string; p: LngLat }> = [
  { name: 'İstanbul', country: 'TUR', p: { lng: 28.98, lat: 41.01 } },
  { name: 'Edirne', country: 'TUR', p: { lng: 26.56, lat: 41.68 } },
  { name: 'İzmir', country: 'TUR', p: { lng: 27.14, lat: 38.42 } },
  { name: 'Bursa', country: 'TUR', p: { lng: 29.06, lat: 40.18 } },
  { name: 'Antalya', country: 'TUR', p: { lng: 30.71, lat: 36.9 } },
  { name: 'Eskişehir', country: 'TUR', p: { lng: 30.52, lat: 39.78 } },
  { name: 'Konya', country: 'TUR', p: { lng: 32.48, lat: 37.87 } },
  { name: 'Ankara', country: 'TUR', p: { lng: 32.86, lat: 39.93 } },
  { name: 'Samsun', country: 'TUR', p: { lng: 36.33, lat: 41.29 } },
  { name: 'Kayseri', country: 'TUR', p: { lng: 35.49, lat: 38.73 } },
  { name: 'Adana', country: 'TUR', p: { lng: 35.32, lat: 37.0 } },
  { name: 'Sivas', country: 'TUR', p: { lng: 37.02, lat: 39.75 } },
  { name: 'Trabzon', country: 'TUR', p: { lng: 39.72, lat: 41.0 } },
  { name: 'Malatya', country: 'TUR', p: { lng: 38.31, lat: 38.36 } },
  { name: 'Diyarbakır', country: 'TUR', p: { lng: 40.23, lat: 37.91 } },
  { name: 'Erzurum', country: 'TUR', p: { lng: 41.27, lat: 39.9 } },
  { name: 'Van', country: 'TUR', p: { lng: 43.38, lat: 38.5 } },
  { name: 'Lefkoşa', country: 'CTR', p: { lng: 33.36, lat: 35.19 } },
];

/** The nearest city to `p`: name and country code for a thunderstorm's meta. */
export function nearestCity(p: LngLat): { name: string; country: string } {
  let best = CITIES[0]!;
  let bestKm = Infinity;
  for (const city of CITIES) {
    const km = distanceKm(p, city.p);
    if (km < bestKm) {
      best = city;
      bestKm = km;
    }
  }
  return { name: best.name, country: best.country };
}
