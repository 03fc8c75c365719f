import { fail, invalid, ok, type Result } from './errors.js';
import { FORECAST_FILTER_FIELDS, type ForecastFilter } from './registration.js';
import { FORECAST_THRESHOLDS, resolveThreshold } from './forecast-thresholds.js';
import type { Validated } from './weather-filter.js';

/** Validates threshold names against the table; an unknown name lists the accepted ones with their values. */
export function validateForecastFilter(draft: Record<string, string> | undefined): Result<Validated<ForecastFilter>> {
  const filter: ForecastFilter = {};
  for (const field of FORECAST_FILTER_FIELDS) {
    const raw = draft?.[field]?.trim() ?? '';
    if (raw === '') continue;
    if (!resolveThreshold(field, raw.toUpperCase())) {
      const scale = FORECAST_THRESHOLDS[field];
      const listed = scale.values.map(([name, value]) => `${name} (${scale.comparison} ${value} ${scale.unit})`).join(', ');
      return fail(invalid(`filter.${field}`, `must be one of ${listed}; got "${raw}"`));
    }
    filter[field] = raw.toUpperCase();
  }
  const warnings = Object.keys(filter).length === 0 ? ['filter sets no threshold: this forecast alarm never triggers'] : [];
  return ok({ value: filter, warnings });
}
