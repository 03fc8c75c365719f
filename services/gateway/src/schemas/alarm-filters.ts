import { INTENSITIES } from './common.js';
import { arrayOf, closedObject, enumOf, named } from './json-schema.js';

export const LIGHTNING_TYPES = ['FLASH_CLOUD_TO_GROUND', 'FLASH_IN_CLOUD'] as const;
export const THUNDERSTORM_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH'] as const;

/** interface.md 2.3 filter, shared by geometry and point alarms (2.5). */
export const WeatherAlarmFilter = named(
  'WeatherAlarmFilter',
  closedObject({
    lightning: closedObject({
      type: enumOf(LIGHTNING_TYPES),
      peakCurrent: { type: 'number', description: 'amperes; negative means negative polarity' },
      inCloudHeight: { type: 'number', minimum: 0, description: 'meters' },
    }),
    thunderstorm: closedObject({
      intersectsAffectedPolygon: { type: 'boolean' },
      intersectsCellPolygon: { type: 'boolean' },
      severityThreshold: enumOf(THUNDERSTORM_SEVERITIES),
      speedThreshold: { type: 'number', minimum: 0 },
    }),
    precipitation: closedObject({
      intensities: arrayOf(enumOf(INTENSITIES), { uniqueItems: true }),
    }),
  }),
);

/** The contract gives only example values of the thresholds (2.4); the alarm matcher owns their list. */
const threshold = { type: 'string', pattern: '^[A-Z][A-Z0-9_]*$', maxLength: 64 };

/** interface.md 2.4 filter. */
export const ForecastAlarmFilter = named(
  'ForecastAlarmFilter',
  closedObject({
    precipitationThreshold: { ...threshold, examples: ['MODERATE'] },
    snowFallThreshold: { ...threshold, examples: ['LIGHT'] },
    windGustThreshold: { ...threshold, examples: ['STRONG_WIND'] },
    hotTemperatureThreshold: { ...threshold, examples: ['HOT_SNAP'] },
    coldTemperatureThreshold: { ...threshold, examples: ['COLD_SNAP'] },
  }),
);
