import type { BBox } from '@stormhook/geometry';
import { areaKey, isAreaLevel, isCountryCode, type Area, type AreaLevel, type CountryCode } from '../domain/area.js';
import { toCoordinates } from '../domain/geometry/geojson-coordinates.js';
import { parseAreaGeometry } from '../import/parse-geometry.js';

/** Any position on Earth: stored areas were checked against their country's envelope at import. */
const WHOLE_WORLD: BBox = { minLng: -180, minLat: -90, maxLng: 180, maxLat: 90 };

/**
 * An area as stored. The geometry is kept as GeoJSON TEXT (an RFC 7946 MultiPolygon geometry
 * object), not as a nested BSON array: FerretDB 1.x refuses arrays of arrays ("nested arrays are not
 * supported"), no geospatial index is wanted on it (resolution runs on the in-memory index), and the
 * text still reads as plain GeoJSON in any database tool.
 */
export interface AreaDocument {
  /** `level:id` (see areaKey): the natural key, so that writes address one document by _id. */
  _id: string;
  level: AreaLevel;
  id: number;
  country: CountryCode;
  name: string;
  parentId: number | null;
  licensePlateCode: number | null;
  geometryGeoJson: string;
  contentHash: string;
  createdAt: Date;
  updatedAt: Date;
}

export function toDocumentFields(area: Area, contentHash: string): Omit<AreaDocument, 'createdAt' | 'updatedAt'> {
  return {
    _id: areaKey(area),
    level: area.level,
    id: area.id,
    country: area.country,
    name: area.name,
    parentId: area.parentId,
    licensePlateCode: area.licensePlateCode,
    geometryGeoJson: JSON.stringify({ type: 'MultiPolygon', coordinates: toCoordinates(area.geometry) }),
    contentHash,
  };
}

/** The area, or why the stored document cannot be one (hand-edited or written by another version). */
export function fromDocument(doc: Partial<AreaDocument>): Area | string {
  const { level, id, country, name, parentId, licensePlateCode, geometryGeoJson } = doc;
  if (typeof level !== 'string' || !isAreaLevel(level)) return `unknown level ${JSON.stringify(level)}`;
  if (typeof id !== 'number' || !Number.isSafeInteger(id)) return `invalid id ${JSON.stringify(id)}`;
  if (typeof country !== 'string' || !isCountryCode(country)) return `unknown country ${JSON.stringify(country)}`;
  if (typeof name !== 'string') return 'missing name';
  if (typeof geometryGeoJson !== 'string') return 'missing geometryGeoJson';
  let raw: unknown;
  try {
    raw = JSON.parse(geometryGeoJson);
  } catch {
    return 'geometryGeoJson is not JSON';
  }
  const geometry = parseAreaGeometry(raw, WHOLE_WORLD);
  if (!geometry.ok) return `geometry ${geometry.reason}`;
  return {
    level,
    id,
    country,
    name,
    parentId: typeof parentId === 'number' ? parentId : null,
    licensePlateCode: typeof licensePlateCode === 'number' ? licensePlateCode : null,
    geometry: geometry.geometry,
  };
}
