// The forecast threshold table has one owner, here: the alarm-matcher evaluates registrations
// against it, the gateway documents it in the OpenAPI filter schema and the forecast payload
// schema names its metrics. Both services already depend on this package (the webhook contract),
// and no service may import another, so the table lives beside the payloads that report it.

/** The forecast filter fields of a registration (interface.md 2.4), one threshold scale each. */
export const FORECAST_FILTER_FIELDS = [
  'precipitationThreshold',
  'snowFallThreshold',
  'windGustThreshold',
  'hotTemperatureThreshold',
  'coldTemperatureThreshold',
] as const;
export type ForecastFilterField = (typeof FORECAST_FILTER_FIELDS)[number];

/**
 * THE forecast threshold table: every value the five forecast filters accept, what it means in
 * numbers, and how a day breaches it. The contract shows only example names (MODERATE, LIGHT,
 * STRONG_WIND, HOT_SNAP, COLD_SNAP); the metric names and units are those of the incumbent's
 * forecast payload (PRECIPITATION mm, SNOWFALL cm, WIND_GUSTS_MAX km/h, TEMPERATURE_MAX/MIN °C).
 *
 * | filter field             | metric          | unit | daily value                      | breach | values                                                                   |
 * |--------------------------|-----------------|------|----------------------------------|--------|--------------------------------------------------------------------------|
 * | precipitationThreshold   | PRECIPITATION   | mm   | total of the UTC day             | >=     | LIGHT 1, MODERATE 10, HEAVY 25, VERY_HEAVY 50, EXTREME 75               |
 * | snowFallThreshold        | SNOWFALL        | cm   | total of the UTC day             | >=     | LIGHT 1, MODERATE 5, HEAVY 10, VERY_HEAVY 20, EXTREME 40                |
 * | windGustThreshold        | WIND_GUSTS_MAX  | km/h | maximum gust of the UTC day      | >=     | STRONG_WIND 50, GALE 62, STRONG_GALE 75, STORM 89, VIOLENT_STORM 103, HURRICANE 118 |
 * | hotTemperatureThreshold  | TEMPERATURE_MAX | °C   | highest temperature of the day   | >=     | WARM 30, HOT_SNAP 35, HEATWAVE 38, EXTREME_HEAT 40                      |
 * | coldTemperatureThreshold | TEMPERATURE_MIN | °C   | lowest temperature of the day    | <=     | FROST 0, COLD_SNAP -5, SEVERE_COLD -10, EXTREME_COLD -20                |
 *
 * Wind values are the lower bounds of Beaufort 7 to 12 (STRONG_WIND = near gale); rain and snow
 * follow the daily-total bands of national warning practice. WARNING: names are part of the public
 * contract and stored in registrations; changing a number changes alarms already registered.
 */
export const THRESHOLD_METRICS = ['PRECIPITATION', 'SNOWFALL', 'WIND_GUSTS_MAX', 'TEMPERATURE_MAX', 'TEMPERATURE_MIN'] as const;
export type ThresholdMetric = (typeof THRESHOLD_METRICS)[number];
export const COMPARISONS = ['>=', '<='] as const;
export type Comparison = (typeof COMPARISONS)[number];

export interface ThresholdScale {
  field: ForecastFilterField;
  metric: ThresholdMetric;
  unit: string;
  comparison: Comparison;
  aggregation: string;
  /** Name to value, ascending severity. */
  values: ReadonlyArray<readonly [string, number]>;
}

export const FORECAST_THRESHOLDS: Readonly<Record<ForecastFilterField, ThresholdScale>> = {
  precipitationThreshold: {
    field: 'precipitationThreshold',
    metric: 'PRECIPITATION',
    unit: 'mm',
    comparison: '>=',
    aggregation: 'total precipitation of the UTC day',
    values: [
      ['LIGHT', 1],
      ['MODERATE', 10],
      ['HEAVY', 25],
      ['VERY_HEAVY', 50],
      ['EXTREME', 75],
    ],
  },
  snowFallThreshold: {
    field: 'snowFallThreshold',
    metric: 'SNOWFALL',
    unit: 'cm',
    comparison: '>=',
    aggregation: 'total snowfall of the UTC day',
    values: [
      ['LIGHT', 1],
      ['MODERATE', 5],
      ['HEAVY', 10],
      ['VERY_HEAVY', 20],
      ['EXTREME', 40],
    ],
  },
  windGustThreshold: {
    field: 'windGustThreshold',
    metric: 'WIND_GUSTS_MAX',
    unit: 'km/h',
    comparison: '>=',
    aggregation: 'maximum wind gust of the UTC day',
    values: [
      ['STRONG_WIND', 50],
      ['GALE', 62],
      ['STRONG_GALE', 75],
      ['STORM', 89],
      ['VIOLENT_STORM', 103],
      ['HURRICANE', 118],
    ],
  },
  hotTemperatureThreshold: {
    field: 'hotTemperatureThreshold',
    metric: 'TEMPERATURE_MAX',
    unit: '°C',
    comparison: '>=',
    aggregation: 'highest air temperature of the UTC day',
    values: [
      ['WARM', 30],
      ['HOT_SNAP', 35],
      ['HEATWAVE', 38],
      ['EXTREME_HEAT', 40],
    ],
  },
  coldTemperatureThreshold: {
    field: 'coldTemperatureThreshold',
    metric: 'TEMPERATURE_MIN',
    unit: '°C',
    comparison: '<=',
    aggregation: 'lowest air temperature of the UTC day',
    values: [
      ['FROST', 0],
      ['COLD_SNAP', -5],
      ['SEVERE_COLD', -10],
      ['EXTREME_COLD', -20],
    ],
  },
};

export interface ResolvedThreshold {
  field: ForecastFilterField;
  name: string;
  metric: ThresholdMetric;
  unit: string;
  value: number;
  comparison: Comparison;
}

/** The numeric threshold of `name` for `field`, or undefined when the table has no such value. */
export function resolveThreshold(field: ForecastFilterField, name: string): ResolvedThreshold | undefined {
  const scale = FORECAST_THRESHOLDS[field];
  const entry = scale.values.find(([valueName]) => valueName === name);
  if (!entry) return undefined;
  return { field, name, metric: scale.metric, unit: scale.unit, value: entry[1], comparison: scale.comparison };
}

/** The names `field` accepts, in the table's order (rising severity). */
export function allowedNames(field: ForecastFilterField): string[] {
  return FORECAST_THRESHOLDS[field].values.map(([name]) => name);
}
