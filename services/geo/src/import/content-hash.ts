import { createHash } from 'node:crypto';
import type { Area } from '../domain/area.js';
import { toCoordinates } from '../domain/geometry/geojson-coordinates.js';

/**
 * SHA-256 over everything that defines an area, in a fixed field order. Equal hashes mean the stored
 * area is already current, which makes a re-import of the same data write nothing.
 */
export function areaContentHash(area: Area): string {
  const canonical = JSON.stringify([
    area.country,
    area.level,
    area.id,
    area.name,
    area.parentId,
    area.licensePlateCode,
    // The GeoJSON form, as stored: hashes stay those of earlier imports.
    toCoordinates(area.geometry),
  ]);
  return createHash('sha256').update(canonical).digest('hex');
}
