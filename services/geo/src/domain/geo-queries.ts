import type { MultiPolygon } from '@stormhook/geometry';
import { COUNTRY_NAMES, isCountryCode, SUPPORTED_COUNTRIES, type Area, type AreaLevel, type AreaRef, type CountryCode } from './area.js';
import type { AreaCatalog } from './area-catalog.js';
import { invalidArgument, notFound, ok, unsupportedCountry, type GeoResult } from './geo-error.js';
import { positionProblem } from './geometry/position.js';
import { ringProblem } from './geometry/ring.js';
import { simplifyMultiPolygon } from './geometry/simplify.js';
import type { QueryShape } from './geometry/query-shape.js';
import type { PointResolution, SpatialIndex } from './spatial-index.js';

/** Largest simplification tolerance accepted: beyond 50 km a district is a triangle. */
export const MAX_SIMPLIFY_TOLERANCE_M = 50_000;
/** Largest circle radius, as for the geometry operation (interface.md 8: 200 km). */
export const MAX_CIRCLE_RADIUS_M = 200_000;
/** Most areas one polygonsOf call may ask for. */
export const MAX_POLYGON_REFS = 1_000;

export interface GeometryOptions {
  /** Douglas-Peucker tolerance in metres; 0 or absent returns the stored geometry. */
  readonly simplifyToleranceM?: number;
}

export interface CountryView {
  readonly code: CountryCode;
  readonly name: string;
  readonly cityCount: number;
  readonly districtCount: number;
  readonly neighbourhoodCount: number;
}

export interface CityView {
  readonly id: number;
  readonly name: string;
  readonly country: CountryCode;
  /** null outside TUR (interface.md 2.6). */
  readonly licensePlateCode: number | null;
  readonly geometry: MultiPolygon;
}

export interface DistrictView {
  readonly id: number;
  readonly name: string;
  readonly geometry: MultiPolygon;
  readonly city: CityView;
}

export interface NeighbourhoodView {
  readonly id: number;
  readonly name: string;
  readonly geometry: MultiPolygon;
  readonly district: DistrictView;
}

export interface AreaGeometry extends AreaRef {
  readonly name: string;
  readonly geometry: MultiPolygon;
}

export interface GeoQueriesDeps {
  readonly catalog: AreaCatalog;
  readonly index: SpatialIndex;
}

/** Simplified geometries are kept, because list calls repeat the same tolerance for every city. */
const SIMPLIFIED_CACHE_LIMIT = 10_000;

/**
 * The use cases behind the geo gRPC API. They read an in-memory snapshot (catalogue and spatial
 * index built from the repository at start); after a re-import the service builds a new snapshot
 * and a new GeoQueries. Every outcome is a value: a result or a {@link GeoError}.
 */
export class GeoQueries {
  private readonly simplified = new Map<string, MultiPolygon>();

  constructor(private readonly deps: GeoQueriesDeps) {}

  listCountries(): CountryView[] {
    const { catalog } = this.deps;
    return SUPPORTED_COUNTRIES.map((code) => ({
      code,
      name: COUNTRY_NAMES[code],
      cityCount: catalog.count('city', code),
      districtCount: catalog.count('district', code),
      neighbourhoodCount: catalog.count('neighbourhood', code),
    }));
  }

  /** Cities of TUR (by plate code) or CTR (its one outline area); other codes name the supported ones. */
  listCities(countryCode: string, options: GeometryOptions = {}): GeoResult<CityView[]> {
    const code = countryCode.trim().toUpperCase();
    if (!isCountryCode(code)) return unsupportedCountry(countryCode);
    const tolerance = this.tolerance(options);
    if (!tolerance.ok) return tolerance;
    return ok(this.deps.catalog.citiesOf(code).map((city) => this.cityView(city, tolerance.value)));
  }

  getCity(id: number, options: GeometryOptions = {}): GeoResult<CityView> {
    const tolerance = this.tolerance(options);
    if (!tolerance.ok) return tolerance;
    const city = this.deps.catalog.get('city', id);
    return city ? ok(this.cityView(city, tolerance.value)) : notFound('city', [id]);
  }

  getDistrict(id: number, options: GeometryOptions = {}): GeoResult<DistrictView> {
    const tolerance = this.tolerance(options);
    if (!tolerance.ok) return tolerance;
    const district = this.deps.catalog.get('district', id);
    const view = district && this.districtView(district, tolerance.value);
    return view ? ok(view) : notFound('district', [id]);
  }

  getNeighbourhood(id: number, options: GeometryOptions = {}): GeoResult<NeighbourhoodView> {
    const tolerance = this.tolerance(options);
    if (!tolerance.ok) return tolerance;
    const neighbourhood = this.deps.catalog.get('neighbourhood', id);
    const district = neighbourhood?.parentId != null ? this.deps.catalog.get('district', neighbourhood.parentId) : undefined;
    const districtView = district && this.districtView(district, tolerance.value);
    if (!neighbourhood || !districtView) return notFound('neighbourhood', [id]);
    return ok({
      id: neighbourhood.id,
      name: neighbourhood.name,
      geometry: this.geometry(neighbourhood, tolerance.value),
      district: districtView,
    });
  }

  /** Country, city, district and neighbourhood of a coordinate; an empty resolution means "nowhere we serve". */
  resolvePoint(lng: number, lat: number): GeoResult<PointResolution> {
    const problem = positionProblem(lng, lat);
    if (problem) return invalidArgument('point', problem);
    return ok(this.deps.index.resolve(lng, lat));
  }

  /** The geometry of each requested area, in request order; unknown refs fail the whole call, naming them. */
  polygonsOf(refs: readonly AreaRef[], simplifyToleranceM?: number): GeoResult<AreaGeometry[]> {
    if (refs.length > MAX_POLYGON_REFS) return invalidArgument('areas', `at most ${MAX_POLYGON_REFS} areas per call, got ${refs.length}`);
    const tolerance = this.tolerance(simplifyToleranceM === undefined ? {} : { simplifyToleranceM });
    if (!tolerance.ok) return tolerance;
    const found: AreaGeometry[] = [];
    const missing = new Map<AreaLevel, number[]>();
    for (const ref of refs) {
      const area = this.deps.catalog.get(ref.level, ref.id);
      if (!area) missing.set(ref.level, [...(missing.get(ref.level) ?? []), ref.id]);
      else found.push({ level: area.level, id: area.id, name: area.name, geometry: this.geometry(area, tolerance.value) });
    }
    const [firstMissing] = missing;
    return firstMissing ? notFound(firstMissing[0], firstMissing[1]) : ok(found);
  }

  /** Areas sharing at least one point with a polygon (holes honoured) or a circle, ordered by level then id. */
  intersecting(shape: QueryShape, level?: AreaLevel): GeoResult<AreaRef[]> {
    if (shape.kind === 'circle') {
      const { center, radiusM } = shape.circle;
      const problem = positionProblem(center[0], center[1]);
      if (problem) return invalidArgument('circle.center', problem);
      if (!(radiusM > 0 && radiusM <= MAX_CIRCLE_RADIUS_M)) {
        return invalidArgument('circle.radius', `must be more than 0 and at most ${MAX_CIRCLE_RADIUS_M} metres, got ${radiusM}`);
      }
    } else {
      if (shape.polygon.exterior.length === 0) return invalidArgument('polygon.exterior', 'is required');
      for (const [r, ring] of [shape.polygon.exterior, ...shape.polygon.holes].entries()) {
        const field = r === 0 ? 'polygon.exterior' : `polygon.holes[${r - 1}]`;
        for (const p of ring) {
          const problem = positionProblem(p[0], p[1]);
          if (problem) return invalidArgument(field, problem);
        }
        const problem = ringProblem(ring);
        if (problem) return invalidArgument(field, problem);
      }
    }
    return ok(this.deps.index.intersecting(shape, level));
  }

  private tolerance(options: GeometryOptions): GeoResult<number> {
    const t = options.simplifyToleranceM ?? 0;
    if (!Number.isFinite(t) || t < 0 || t > MAX_SIMPLIFY_TOLERANCE_M) {
      return invalidArgument('simplifyTolerance', `must be a number of metres from 0 to ${MAX_SIMPLIFY_TOLERANCE_M}, got ${t}`);
    }
    return ok(t);
  }

  private geometry(area: Area, toleranceM: number): MultiPolygon {
    if (toleranceM === 0) return area.geometry;
    const key = `${area.level}:${area.id}:${toleranceM}`;
    let geometry = this.simplified.get(key);
    if (!geometry) {
      if (this.simplified.size >= SIMPLIFIED_CACHE_LIMIT) this.simplified.clear();
      geometry = simplifyMultiPolygon(area.geometry, toleranceM);
      this.simplified.set(key, geometry);
    }
    return geometry;
  }

  private cityView(city: Area, toleranceM: number): CityView {
    return {
      id: city.id,
      name: city.name,
      country: city.country,
      licensePlateCode: city.licensePlateCode,
      geometry: this.geometry(city, toleranceM),
    };
  }

  /** undefined when the district's city is missing: the import never lets that happen. */
  private districtView(district: Area, toleranceM: number): DistrictView | undefined {
    const city = district.parentId != null ? this.deps.catalog.get('city', district.parentId) : undefined;
    if (!city) return undefined;
    return { id: district.id, name: district.name, geometry: this.geometry(district, toleranceM), city: this.cityView(city, toleranceM) };
  }
}
