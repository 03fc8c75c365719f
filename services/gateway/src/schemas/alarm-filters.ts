import { FORECAST_THRESHOLDS, type ForecastFilterField } from '@stormhook/webhooks';
import { INTENSITIES, LIGHTNING_TYPES, THUNDERSTORM_SEVERITIES } from './common.js';
import { arrayOf, closedObject, enumOf, named } from './json-schema.js';

/**
 * The opt-in early-warning stage of thunderstorm and precipitation alarms, an extension beyond
 * interface.md: optional, so a filter without it behaves as the contract says. `weather` names the
 * member for the callback types the description lists.
 */
function approachStage(weather: 'thunderstorm' | 'precipitation', what: string) {
  return closedObject(
    {
      leadMinutes: {
        type: 'integer',
        minimum: 5,
        maximum: 60,
        description: `minutes, 5 to 60: how far ahead of the predicted arrival of ${what} in the area to warn`,
      },
    },
    ['leadMinutes'],
    {
      description:
        `opt-in early warning (an extension beyond the contract): when ${what} passing the rest of this filter is predicted to ` +
        `enter the area within leadMinutes, a ${weather}.approaching callback with the predicted arrival is sent; if a later ` +
        `update no longer predicts entry, ${weather}.approach_cancelled; ${weather}.start follows on arrival. Absent: no warning stage`,
    },
  );
}

/**
 * interface.md 2.3 filter, shared by geometry and point alarms (2.5). The matching rules are the
 * alarm-matcher's (services/alarm-matcher/README.md, "Matching rules"); the descriptions carry them
 * with their units so the OpenAPI document is enough to write a filter. Bounds match the matcher's,
 * which catch unit mistakes (kA for A, km for m).
 */
export const WeatherAlarmFilter = named(
  'WeatherAlarmFilter',
  closedObject(
    {
      lightning: closedObject(
        {
          type: enumOf(LIGHTNING_TYPES, { description: 'only discharges of this type match; absent: both types' }),
          peakCurrent: {
            type: 'number',
            minimum: -1_000_000,
            maximum: 1_000_000,
            description:
              'amperes (A, not kA). A discharge matches when the absolute value of its peak current is at least the absolute ' +
              'value of this: the sign is ignored and both polarities match (the payload keeps the sign, negative = negative ' +
              'polarity). Detected discharges start around 1,000 A, so a smaller value filters nothing (a warning says so). ' +
              'Absent: any current',
          },
          inCloudHeight: {
            type: 'number',
            minimum: 0,
            maximum: 25_000,
            description:
              'metres above mean sea level. An in-cloud discharge with a known height matches only at or below it; ' +
              'cloud-to-ground discharges are not limited by it. Absent: any height',
          },
          approachRadius: {
            type: 'number',
            minimum: 500,
            maximum: 50_000,
            description:
              "metres, 500 to 50,000: width of a ring around the alarm's area, beyond its boundary (an extension beyond the " +
              'contract), reserved for a lightning.approaching callback per episode. NOT ACTED ON YET: it is stored and ' +
              'answered, the registration answer carries a warning saying so, and no lightning.approaching is sent. Absent: no ring',
          },
        },
        [],
        { description: 'a discharge whose located point lies in the area matches when every criterion set here holds; absent: lightning never triggers' },
      ),
      thunderstorm: closedObject(
        {
          intersectsAffectedPolygon: {
            type: 'boolean',
            description: 'match when the storm threat (affected) polygon touches the area (shares any point)',
          },
          intersectsCellPolygon: { type: 'boolean', description: 'match when the storm cell polygon touches the area' },
          severityThreshold: enumOf(THUNDERSTORM_SEVERITIES, {
            description: 'minimum severity, inclusive (LOW < MEDIUM < HIGH); absent: every severity',
          }),
          speedThreshold: {
            type: 'number',
            minimum: 0,
            maximum: 500,
            description: 'minimum storm speed in km/h, inclusive (the storm speed, or the cell speed when the feed gave none); absent: any speed',
          },
          approach: approachStage('thunderstorm', 'a thunderstorm cell'),
        },
        [],
        {
          description:
            'with neither polygon flag set, either polygon touching the area matches; with one or both set, only those set to ' +
            'true count (both false never matches, a warning says so). Then severity and speed must reach their thresholds. ' +
            'Absent: thunderstorms never trigger',
        },
      ),
      precipitation: closedObject(
        {
          intensities: arrayOf(enumOf(INTENSITIES), {
            uniqueItems: true,
            description: 'intensity classes that match; empty: any intensity',
          }),
          approach: approachStage('precipitation', 'rain'),
        },
        [],
        {
          description:
            "the precipitation area (radar observation or nowcast) touches the alarm's area and its intensity is listed; absent: precipitation never triggers",
        },
      ),
    },
    [],
    { description: 'an absent member means that kind of weather never triggers the registration (no member at all: a warning)' },
  ),
);

/** A forecast filter field documented from the one threshold table, values with their numbers. */
function thresholdField(field: ForecastFilterField, example: string) {
  const scale = FORECAST_THRESHOLDS[field];
  const values = scale.values.map(([name, value]) => `${name} ${value} ${scale.unit}`).join(', ');
  return enumOf(
    scale.values.map(([name]) => name),
    {
      examples: [example],
      description:
        `metric ${scale.metric}: a day breaches when its ${scale.aggregation} (${scale.unit}) is ${scale.comparison} the ` +
        `threshold: ${values}. Absent: not evaluated`,
    },
  );
}

/**
 * interface.md 2.4 filter: at each delivery slot the days of the forecastDays window whose daily value
 * breaches a set threshold are reported (ADMINISTRATIVE: worst grid cell of the district; POINT: the
 * nearest grid cell).
 */
export const ForecastAlarmFilter = named(
  'ForecastAlarmFilter',
  closedObject(
    {
      precipitationThreshold: thresholdField('precipitationThreshold', 'MODERATE'),
      snowFallThreshold: thresholdField('snowFallThreshold', 'LIGHT'),
      windGustThreshold: thresholdField('windGustThreshold', 'STRONG_WIND'),
      hotTemperatureThreshold: thresholdField('hotTemperatureThreshold', 'HOT_SNAP'),
      coldTemperatureThreshold: thresholdField('coldTemperatureThreshold', 'COLD_SNAP'),
    },
    [],
    { description: 'thresholds from the table of GET /v1/alarms/forecasts/thresholds; no threshold set: the alarm never triggers (a warning says so)' },
  ),
);
