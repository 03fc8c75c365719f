import type { ApiClient, ApiResult } from './client.js';
import type { AdministrativeBoundary, CityWithPolygon, DistrictWithGeometry, LocatedAreas, NeighborhoodWithPolygon } from './types.js';
import { collection, multiGeometry, ringGeometry, type Feature, type FeatureCollection, type Geometry } from '../map/geojson.js';

/** Metres: lighter polygons for a country-wide view, finer ones for one district or neighbourhood. */
const PROVINCE_TOLERANCE_M = 800;
const AREA_TOLERANCE_M = 40;

/**
 * The boundaries the API serves (interface.md 4.9 - 4.11, and the locate operation that turns a click
 * into ids): the base map's provinces, and the outline of any city, district or neighbourhood, each
 * fetched once per session.
 */
export class Areas {
  private provinces: CityWithPolygon[] = [];
  private readonly outlines = new Map<string, Promise<{ name: string; geometry: Geometry } | undefined>>();

  constructor(private readonly api: ApiClient) {}

  async loadProvinces(): Promise<ApiResult<FeatureCollection>> {
    const answer = await this.api.get<CityWithPolygon[]>(`/v1/alarms/geometries/cities?simplifyTolerance=${PROVINCE_TOLERANCE_M}`);
    if (!answer.ok) return answer;
    this.provinces = answer.body;
    const features: Feature[] = this.provinces
      .filter((c) => c.polygon)
      .map((c) => ({ type: 'Feature', id: c.id, geometry: ringGeometry(c.polygon!), properties: { id: c.id, name: c.name } }));
    return { ok: true, status: answer.status, body: collection(features) };
  }

  cityName(id: number): string | undefined {
    return this.provinces.find((c) => c.id === id)?.name;
  }

  locate(point: { lng: number; lat: number }): Promise<ApiResult<LocatedAreas>> {
    return this.api.post<LocatedAreas>('/v1/alarms/geometries/locate', { point });
  }

  /** The outline of the most specific area of a boundary, with its name. */
  outline(boundary: AdministrativeBoundary): Promise<{ name: string; geometry: Geometry } | undefined> {
    const key = boundary.neighborhoodId ? `n${boundary.neighborhoodId}` : boundary.districtId ? `d${boundary.districtId}` : `c${boundary.cityId}`;
    let held = this.outlines.get(key);
    if (!held) {
      held = this.fetchOutline(boundary);
      this.outlines.set(key, held);
      // A failure is not remembered: the next draw asks again.
      void held.then((found) => {
        if (!found) this.outlines.delete(key);
      });
    }
    return held;
  }

  private async fetchOutline(boundary: AdministrativeBoundary): Promise<{ name: string; geometry: Geometry } | undefined> {
    if (boundary.neighborhoodId) {
      const answer = await this.api.get<NeighborhoodWithPolygon>(
        `/v1/alarms/geometries/neighborhood/${boundary.neighborhoodId}?simplifyTolerance=${AREA_TOLERANCE_M}`,
      );
      return answer.ok && answer.body.polygon ? { name: answer.body.name, geometry: ringGeometry(answer.body.polygon) } : undefined;
    }
    if (boundary.districtId) {
      const answer = await this.api.get<DistrictWithGeometry>(`/v1/alarms/forecasts/district/${boundary.districtId}?simplifyTolerance=${AREA_TOLERANCE_M}`);
      return answer.ok && answer.body.geometry ? { name: answer.body.name, geometry: multiGeometry(answer.body.geometry) } : undefined;
    }
    const city = this.provinces.find((c) => c.id === boundary.cityId);
    return city?.polygon ? { name: city.name, geometry: ringGeometry(city.polygon) } : undefined;
  }
}
