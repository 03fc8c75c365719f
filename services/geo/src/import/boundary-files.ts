import type { BBox } from '@stormhook/geometry';
import { CTR_OUTLINE_AREA_ID, type AreaLevel, type CountryCode } from '../domain/area.js';

/**
 * How each source file maps onto areas: THE one table of the import (services/geo/README.md shows
 * the same). Property names are those of the files in ../shared/data/geo (see its README); a source
 * given by STORMHOOK_GEO_SOURCE must use the same file names and properties. Files are imported in
 * this order so that every parent is known before its children.
 */
export interface BoundaryFileSpec {
  readonly file: string;
  readonly level: AreaLevel;
  readonly country: CountryCode;
  /** Property holding the integer id; absent when the file has one feature with a fixed id. */
  readonly idProperty?: string;
  readonly fixedId?: number;
  /** Accepted id range, inclusive. */
  readonly idRange: readonly [number, number];
  /** First non-empty string wins. */
  readonly nameProperties: readonly string[];
  /** Property holding the parent id (city of a district, district of a neighbourhood). */
  readonly parentProperty?: string;
  /** Property that, when present, must equal `country` (guards against a file of the wrong country). */
  readonly countryProperty?: string;
  /** The licence plate code is the id (TUR cities). */
  readonly plateCodeIsId: boolean;
  /** Generous envelope of the country: a position outside it (typically lat/lng swapped) is rejected. */
  readonly envelope: BBox;
}

const TUR_ENVELOPE: BBox = { minLng: 25.0, minLat: 35.5, maxLng: 45.5, maxLat: 42.5 };
const CTR_ENVELOPE: BBox = { minLng: 32.0, minLat: 34.8, maxLng: 34.8, maxLat: 35.9 };

export const BOUNDARY_FILES: readonly BoundaryFileSpec[] = [
  {
    file: 'tur_adm1_provinces.geojson',
    level: 'city',
    country: 'TUR',
    idProperty: 'id',
    idRange: [1, 81],
    nameProperties: ['name'],
    countryProperty: 'country',
    plateCodeIsId: true,
    envelope: TUR_ENVELOPE,
  },
  {
    file: 'ctr_outline_naturalearth.geojson',
    level: 'city',
    country: 'CTR',
    fixedId: CTR_OUTLINE_AREA_ID,
    idRange: [CTR_OUTLINE_AREA_ID, CTR_OUTLINE_AREA_ID],
    nameProperties: ['name', 'name_en'],
    plateCodeIsId: false,
    envelope: CTR_ENVELOPE,
  },
  {
    file: 'tur_adm2_districts.geojson',
    level: 'district',
    country: 'TUR',
    idProperty: 'id',
    idRange: [1, 99_999],
    nameProperties: ['name'],
    parentProperty: 'province_id',
    countryProperty: 'country',
    plateCodeIsId: false,
    envelope: TUR_ENVELOPE,
  },
  {
    file: 'tur_adm4_istanbul_wof_sample.geojson',
    level: 'neighbourhood',
    country: 'TUR',
    idProperty: 'wof_id',
    idRange: [1, Number.MAX_SAFE_INTEGER],
    nameProperties: ['name', 'wof_name'],
    parentProperty: 'district_id',
    plateCodeIsId: false,
    envelope: TUR_ENVELOPE,
  },
];
