import type { MultiPolygon } from '@stormhook/geometry';

/** ISO 3166-1 alpha-3 codes of the countries served (interface.md 4.12). CTR: Northern Cyprus. */
export type CountryCode = 'TUR' | 'CTR';
export const SUPPORTED_COUNTRIES: readonly CountryCode[] = ['TUR', 'CTR'];

export const COUNTRY_NAMES: Readonly<Record<CountryCode, string>> = {
  TUR: 'Türkiye',
  CTR: 'Kuzey Kıbrıs Türk Cumhuriyeti',
};

export function isCountryCode(value: string): value is CountryCode {
  return (SUPPORTED_COUNTRIES as readonly string[]).includes(value);
}

/** From coarse to fine. Ids are unique within a level, not across levels. */
export type AreaLevel = 'city' | 'district' | 'neighbourhood';
export const AREA_LEVELS: readonly AreaLevel[] = ['city', 'district', 'neighbourhood'];

export function isAreaLevel(value: string): value is AreaLevel {
  return (AREA_LEVELS as readonly string[]).includes(value);
}

/** The level one step up; cities have no parent. */
export function parentLevel(level: AreaLevel): AreaLevel | undefined {
  return level === 'neighbourhood' ? 'district' : level === 'district' ? 'city' : undefined;
}

/**
 * The id Northern Cyprus's one area carries. The source has only the country outline (no districts),
 * so it is served as the single city-level area of CTR: 9001 is outside every Turkish id range
 * (plate codes 1..81, district codes 1101..2107, WOF ids above 85,000,000) and leaves 9002.. for the
 * KKTC districts if openly licensed boundaries appear.
 */
export const CTR_OUTLINE_AREA_ID = 9001;

/** An administrative area; geometry in GeoJSON order. */
export interface Area {
  readonly country: CountryCode;
  readonly level: AreaLevel;
  readonly id: number;
  readonly name: string;
  /** City of a district, district of a neighbourhood; null for cities. */
  readonly parentId: number | null;
  /** Turkish licence plate code (equal to the id) for TUR cities; null for everything else. */
  readonly licensePlateCode: number | null;
  readonly geometry: MultiPolygon;
}

/** Names an area without its geometry. */
export interface AreaRef {
  readonly level: AreaLevel;
  readonly id: number;
}

export function areaKey(ref: AreaRef): string {
  return `${ref.level}:${ref.id}`;
}
