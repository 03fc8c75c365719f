import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Grid, PreparedPolygon } from '@stormhook/alarm-matcher';
import { findRepoRoot } from '@stormhook/config';
import type { MultiPolygon } from '@stormhook/geometry';

/** İstanbul's plate code: the city id of its districts in the shared boundary data. */
export const ISTANBUL_CITY_ID = 34;

export interface IstanbulDistrict {
  id: number;
  name: string;
  shape: PreparedPolygon;
}

export interface IstanbulNeighbourhood {
  /** The Who's On First id geo serves it under. */
  id: number;
  districtId: number;
}

export interface Istanbul {
  districts: IstanbulDistrict[];
  neighbourhoods: IstanbulNeighbourhood[];
  box: { minLng: number; minLat: number; maxLng: number; maxLat: number };
}

interface Feature {
  properties: Record<string, unknown>;
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] };
}

function multiOf(feature: Feature): MultiPolygon {
  const polygons = (feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates) as number[][][][];
  return polygons.map((rings) => ({
    exterior: rings[0]!.map(([x, y]) => [x!, y!] as const),
    holes: rings.slice(1).map((ring) => ring.map(([x, y]) => [x!, y!] as const)),
  }));
}

/** Where geo imports its boundaries from: STORMHOOK_GEO_SOURCE, or the shared data beside the checkout (as geo's own default). */
function geoDir(): string {
  const configured = process.env['STORMHOOK_GEO_SOURCE'];
  if (configured) return configured;
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
  if (root === undefined) throw new Error('cannot find the repository root to locate ../shared/data/geo');
  return join(root, '..', 'shared', 'data', 'geo');
}

/**
 * İstanbul's districts (with their shapes, for placing registrations on land) and the neighbourhoods
 * of the shared Who's On First sample that lie in a known district, read from the boundary files geo
 * imports. The benchmark needs the real ones: geometry alarms name them by id.
 */
export function loadIstanbul(grid = new Grid()): Istanbul {
  const dir = geoDir();
  const districtsFile = join(dir, 'tur_adm2_districts.geojson');
  const neighbourhoodsFile = join(dir, 'tur_adm4_istanbul_wof_sample.geojson');
  if (!existsSync(districtsFile) || !existsSync(neighbourhoodsFile)) throw new Error(`the İstanbul boundary files are missing in ${dir}`);
  const read = (file: string) => (JSON.parse(readFileSync(file, 'utf8')) as { features: Feature[] }).features;
  const districts = read(districtsFile)
    .filter((f) => Number(f.properties['province_id']) === ISTANBUL_CITY_ID)
    .map((f) => ({ id: Number(f.properties['id']), name: String(f.properties['name']), shape: new PreparedPolygon(multiOf(f), grid) }));
  const known = new Set(districts.map((d) => d.id));
  const neighbourhoods = read(neighbourhoodsFile)
    .filter((f) => known.has(Number(f.properties['district_id'])))
    .map((f) => ({ id: Number(f.properties['wof_id']), districtId: Number(f.properties['district_id']) }));
  if (districts.length === 0 || neighbourhoods.length === 0) throw new Error(`no İstanbul districts or neighbourhoods in ${dir}`);
  const box = { minLng: Infinity, minLat: Infinity, maxLng: -Infinity, maxLat: -Infinity };
  for (const { shape } of districts) {
    box.minLng = Math.min(box.minLng, shape.bbox.minLng);
    box.minLat = Math.min(box.minLat, shape.bbox.minLat);
    box.maxLng = Math.max(box.maxLng, shape.bbox.maxLng);
    box.maxLat = Math.max(box.maxLat, shape.bbox.maxLat);
  }
  return { districts, neighbourhoods, box };
}

/** A point on İstanbul's land, uniform by area (rejection sampling in the city's box). */
export function pointInIstanbul(city: Istanbul, random: () => number): { lng: number; lat: number } {
  const { box } = city;
  for (;;) {
    const lng = box.minLng + random() * (box.maxLng - box.minLng);
    const lat = box.minLat + random() * (box.maxLat - box.minLat);
    if (city.districts.some((d) => d.shape.contains(lng, lat))) return { lng, lat };
  }
}
