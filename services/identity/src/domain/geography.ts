// Shared with the gateway, which decides access from the same rules: one home, in @stormhook/access.
export {
  COUNTRIES,
  COUNTRY_CODES,
  isCountryCode,
  foldRegion,
  withinBoundary,
  withinAny,
  describeBoundaries,
  type CountryCode,
  type GeoBoundary,
  type ResolvedLocation,
} from '@stormhook/access';
