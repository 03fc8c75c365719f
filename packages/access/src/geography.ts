/**
 * Countries a subscription can cover (ISO 3166 alpha-3; CTR is the code the contract uses for
 * Northern Cyprus). Names fill the `[Country, Region]` part of the 403 location message.
 */
export const COUNTRIES = { TUR: 'Türkiye', CTR: 'Northern Cyprus' } as const;
export type CountryCode = keyof typeof COUNTRIES;
export const COUNTRY_CODES = Object.keys(COUNTRIES) as CountryCode[];

export function isCountryCode(value: unknown): value is CountryCode {
  return typeof value === 'string' && Object.hasOwn(COUNTRIES, value);
}

/** A part of the world a subscription allows: a whole country, or one region (province) of it. */
export interface GeoBoundary {
  country: CountryCode;
  /** A province name as the geo service names it (e.g. "İstanbul"); absent means the whole country. */
  region?: string;
}

/** Where a point lies, as the geo service resolves it. */
export interface ResolvedLocation {
  /** Alpha-3 code; may be a country no subscription covers. */
  country: string;
  region?: string;
}

/**
 * Region names are typed by operators ("Istanbul") and produced by boundary data ("İstanbul"): compare
 * them without case and diacritics, with Turkish dotless ı folded to i.
 */
export function foldRegion(name: string): string {
  return name.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/g, ' ').trim();
}

export function withinBoundary(location: ResolvedLocation, boundary: GeoBoundary): boolean {
  if (location.country !== boundary.country) return false;
  if (boundary.region === undefined) return true;
  return location.region !== undefined && foldRegion(location.region) === foldRegion(boundary.region);
}

export function withinAny(location: ResolvedLocation, boundaries: readonly GeoBoundary[]): boolean {
  return boundaries.some((boundary) => withinBoundary(location, boundary));
}

/**
 * The `[Country, Region]` text of the 403 message: what the subscription allows, so the caller sees
 * where they may query. Several boundaries are joined with " / ".
 */
type DescribedBoundary = Omit<GeoBoundary, 'country'> & { readonly country: string };

export function describeBoundaries(boundaries: readonly DescribedBoundary[]): { country: string; region: string } {
  if (boundaries.length === 0) return { country: 'None', region: 'None' };
  // A code no subscription can hold (a newer identity's) is shown as it is rather than as "undefined".
  const countries = [...new Set(boundaries.map((b) => (isCountryCode(b.country) ? COUNTRIES[b.country] : b.country)))];
  const regions = [...new Set(boundaries.map((b) => b.region ?? 'All Regions'))];
  return { country: countries.join(' / '), region: regions.join(' / ') };
}
