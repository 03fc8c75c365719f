import { fail, type Result } from '@stormhook/errors';
import { SUPPORTED_COUNTRIES, type AreaLevel, type CountryCode } from './area.js';

/**
 * The expected failures of the geo use cases, as values. Transport maps them: unsupported-country and
 * invalid-argument to INVALID_ARGUMENT (HTTP 400), not-found to NOT_FOUND (404). Every message is
 * safe to show to a caller.
 */
export type GeoError =
  | {
      readonly kind: 'unsupported-country';
      readonly countryCode: string;
      readonly supported: readonly CountryCode[];
      readonly message: string;
    }
  | { readonly kind: 'not-found'; readonly level: AreaLevel; readonly ids: readonly number[]; readonly message: string }
  | { readonly kind: 'invalid-argument'; readonly field: string; readonly message: string };

export type GeoResult<T> = Result<T, GeoError>;

export { ok } from '@stormhook/errors';

export function unsupportedCountry(countryCode: string): GeoResult<never> {
  return fail({
    kind: 'unsupported-country',
    countryCode,
    supported: SUPPORTED_COUNTRIES,
    message: `unsupported country code "${countryCode}": supported values are ${SUPPORTED_COUNTRIES.join(', ')}`,
  });
}

export function notFound(level: AreaLevel, ids: readonly number[]): GeoResult<never> {
  const what = ids.length === 1 ? `${level} ${ids[0]} not found` : `${level} areas not found: ${ids.join(', ')}`;
  return fail({ kind: 'not-found', level, ids, message: what });
}

export function invalidArgument(field: string, message: string): GeoResult<never> {
  return fail({ kind: 'invalid-argument', field, message: `${field}: ${message}` });
}
