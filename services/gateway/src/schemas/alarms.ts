import { alarmV1, enumNames } from '@stormhook/proto';
import { SUSPENSION_REASONS } from '@stormhook/access';
import { API_LIMITS, COVERED_AREA } from '@stormhook/limits';
import { GeoPoint, dateTime, forecastDays, nonEmptyString, pageNumber, pageSize, uuid } from './common.js';
import { ForecastAlarmFilter, WeatherAlarmFilter } from './alarm-filters.js';
import { backtestWindowFields } from './alarm-backtest.js';
import { arrayOf, closedObject, enumOf, named, openObject, pathParams, tupleOf, type JsonSchema } from './json-schema.js';
import { WebhookConfig, WebhookConfigRequest } from './webhook.js';

const areaId = { type: 'integer', format: 'int64', minimum: 0, maximum: Number.MAX_SAFE_INTEGER } as const;
const recipientId = { ...nonEmptyString(256), description: 'caller-defined external reference of the recipient' };

/** interface.md 2.3: city, district or neighbourhood level; `type` is accepted for symmetry with 2.4. */
export const GeometryAlarmBoundary = named(
  'GeometryAlarmBoundary',
  closedObject(
    {
      type: { const: 'ADMINISTRATIVE' },
      cityId: { ...areaId, description: 'province id (GET /v1/alarms/geometries/cities)' },
      districtId: { ...areaId, description: 'a district of the city (GET /v1/alarms/forecasts/district/{districtId}); absent: the whole city' },
      neighborhoodId: { ...areaId, description: 'a neighbourhood of the district; absent: the whole district' },
    },
    ['cityId'],
    {
      description:
        'the most specific id decides the area matched (city, district or neighbourhood polygon). Unknown ids, a district ' +
        'outside the city or a neighbourhood outside the district are 400s naming the field',
    },
  ),
);

export const AdministrativeBoundary = named(
  'AdministrativeBoundary',
  closedObject({ type: { const: 'ADMINISTRATIVE' }, cityId: areaId, districtId: areaId }, ['type', 'cityId', 'districtId']),
);
export const PointBoundary = named(
  'PointBoundary',
  closedObject({ type: { const: 'POINT' }, point: GeoPoint }, ['type', 'point'], {
    description: 'evaluated for the forecast grid cell nearest to the point',
  }),
);
/** interface.md 2.4: selected by `type`. */
export const ForecastAlarmBoundary = named('ForecastAlarmBoundary', {
  type: 'object',
  oneOf: [AdministrativeBoundary, PointBoundary],
  discriminator: { propertyName: 'type' },
});

/** Point alarm radius bounds in metres, the alarm-matcher's: below 100 m is finer than lightning location accuracy. */
export const MIN_POINT_RADIUS_M = API_LIMITS.pointRadiusM.min;
export const MAX_POINT_RADIUS_M = API_LIMITS.pointRadiusM.max;

/**
 * interface.md 2.5. The contract gives no unit or bound for radius; metres as in the incumbent's
 * examples, capped like the geometry crop (200 km).
 */
export const PointAlarmBoundary = named(
  'PointAlarmBoundary',
  closedObject(
    {
      point: GeoPoint,
      radius: {
        type: 'number',
        format: 'double',
        minimum: MIN_POINT_RADIUS_M,
        maximum: MAX_POINT_RADIUS_M,
        description: `metres, ${MIN_POINT_RADIUS_M} to ${MAX_POINT_RADIUS_M}; the area is the circle of this radius around point`,
      },
    },
    ['point', 'radius'],
    {
      description:
        `point: centre of the alarm area, within longitude ${COVERED_AREA.minLng} to ${COVERED_AREA.maxLng} and latitude ${COVERED_AREA.minLat} to ${COVERED_AREA.maxLat} (a warning when it lies outside ` +
        'Turkey and Northern Cyprus); radius in metres',
    },
  ),
);

/** Forecast delivery slots (alarm-matcher's ForecastDelivery without its prefix). */
export const ALARM_DELIVERY_TIMES = enumNames(alarmV1.ForecastDelivery, 'FORECAST_DELIVERY_');

export type AlarmKind = 'geometries' | 'forecasts' | 'points';

/**
 * What tells the kinds apart. Each part is a type parameter of its own, so every kind's schemas keep
 * their literal types and its input type follows from them.
 */
interface KindSchemas<B, F, X, XR, PF> {
  label: string;
  boundary: B;
  filter: F;
  /** Request fields beyond the common ones (forecast alarms only). */
  extraRequest: X;
  extraRequired: XR;
  extraResponse: Readonly<Record<string, JsonSchema>>;
  pageFilters: PF;
}

function buildAlarmSchemas<
  const B extends JsonSchema,
  const F extends JsonSchema,
  const X extends Readonly<Record<string, JsonSchema>>,
  const XR extends readonly string[],
  const PF extends Readonly<Record<string, JsonSchema>>,
>(kind: KindSchemas<B, F, X, XR, PF>) {
  const requestFields = {
    registrationId: uuid,
    recipientId,
    boundary: kind.boundary,
    webhook: WebhookConfigRequest,
    filter: kind.filter,
    ...kind.extraRequest,
  };
  const required = ['recipientId', 'boundary', 'webhook', 'filter', ...kind.extraRequired] as const;
  // A back-test takes the register body with the webhook optional (nothing is delivered) and the window.
  const backtestRequired = ['recipientId', 'boundary', 'filter', ...kind.extraRequired, 'from', 'to'] as const;
  const registration = named(
    `${kind.label}Registration`,
    openObject(
      {
        registrationId: uuid,
        recipientId: { type: 'string' },
        boundary: kind.boundary,
        webhook: WebhookConfig,
        filter: kind.filter,
        ...kind.extraResponse,
        createdAt: dateTime,
        updatedAt: dateTime,
        warnings: arrayOf(
          { type: 'string' },
          {
            description:
              'non-critical warnings produced while processing, e.g. a filter that can never match, a peak current below any ' +
              'detected discharge, a registrationId sent on register (ignored)',
          },
        ),
        suspended: closedObject(
          {
            reason: enumOf(SUSPENSION_REASONS, {
              description:
                'USER_* and OWNER_NOT_FOUND: the account owner may no longer act; SUBSCRIPTION_*: no live plan; ' +
                'NO_SUBSCRIPTION_FOR_SERVICE: the plan no longer has this alarm kind; OUTSIDE_GEOGRAPHIC_BOUNDARIES: the area is outside the plan',
            }),
            since: { type: 'integer', description: 'epoch milliseconds UTC: the expiry, or when the matcher learnt of the change' },
          },
          ['reason', 'since'],
          {
            description:
              'Present only while the account is no longer entitled to this registration: no callback is sent until it is ' +
              'again, and it resumes by itself. An addition to interface.md 2.3-2.5.',
          },
        ),
      },
      ['registrationId', 'recipientId', 'boundary', 'webhook', 'filter', 'createdAt', 'updatedAt', 'warnings'],
    ),
  );
  return {
    registerRequest: named(`${kind.label}RegisterRequest`, closedObject(requestFields, required)),
    updateRequest: named(`${kind.label}UpdateRequest`, closedObject(requestFields, ['registrationId', ...required])),
    backtestRequest: named(
      `${kind.label}BacktestRequest`,
      closedObject(
        {
          ...requestFields,
          registrationId: {
            ...uuid,
            description:
              'optional: one of your registrations of this kind (404 otherwise); the back-test runs under its id, so the sample callbacks carry the ids the live path gave its deliveries. The body still decides the filter and the area',
          },
          ...backtestWindowFields,
        },
        backtestRequired,
      ),
    ),
    registration,
    pageRequest: named(
      `${kind.label}PageRequest`,
      closedObject({
        pageNumber: { ...pageNumber, description: '0-based page index; default 0' },
        pageSize: { ...pageSize, description: 'registrations per page, 1 to 100; default 20' },
        filterByRecipientIds: arrayOf(recipientId, { maxItems: 100, description: 'only these recipient ids' }),
        accountId: { ...uuid, description: 'another account to query (ADMIN and POWER_USER only); absent: your own account (ADMIN: every account)' },
        ...kind.pageFilters,
      }),
    ),
    page: named(
      `${kind.label}Page`,
      openObject(
        {
          registrations: arrayOf(registration),
          totalRecords: { type: 'integer', format: 'int64' },
          pageNumber: { type: 'integer', format: 'int32' },
          pageSize: { type: 'integer', format: 'int32' },
        },
        ['registrations', 'totalRecords', 'pageNumber', 'pageSize'],
      ),
    ),
  };
}

export const alarmSchemas = {
  geometries: buildAlarmSchemas({
    label: 'GeometryAlarm',
    boundary: GeometryAlarmBoundary,
    filter: WeatherAlarmFilter,
    extraRequest: {},
    extraRequired: [],
    extraResponse: {},
    pageFilters: { filterByBoundary: GeometryAlarmBoundary },
  }),
  forecasts: buildAlarmSchemas({
    label: 'ForecastAlarm',
    boundary: ForecastAlarmBoundary,
    filter: ForecastAlarmFilter,
    extraRequest: {
      forecastDays,
      forecastAlarmDelivery: arrayOf(enumOf(ALARM_DELIVERY_TIMES), {
        minItems: 1,
        uniqueItems: true,
        description: 'MORNING delivers at 04:00 UTC, EVENING at 16:00 UTC',
      }),
    },
    extraRequired: ['forecastDays', 'forecastAlarmDelivery'],
    extraResponse: {
      forecastDays: { type: 'integer' },
      forecastAlarmDelivery: arrayOf({ type: 'string' }),
      resolvedAdministrativeBoundary: openObject(
        { cityId: { type: 'integer' }, cityName: { type: 'string' }, districtId: { type: 'integer' }, districtName: { type: 'string' } },
        [],
        { readOnly: true, description: 'the district evaluated: resolved from the point for POINT, the boundary itself (with names) for ADMINISTRATIVE' },
      ),
      resolvedForecastCell: openObject(
        {
          cellId: { type: 'string', description: 'forecast grid cell id' },
          location: GeoPoint,
          distance: { type: 'number', description: 'metres from the registered point to the grid cell' },
        },
        ['cellId', 'location', 'distance'],
        {
          readOnly: true,
          description:
            'POINT only: the nearest forecast grid cell when the registration was saved (each evaluation picks the nearest cell of the latest run again); absent when no cell lies within 50 km yet',
        },
      ),
    },
    pageFilters: { filterByBoundary: ForecastAlarmBoundary },
  }),
  points: buildAlarmSchemas({
    label: 'PointAlarm',
    boundary: PointAlarmBoundary,
    filter: WeatherAlarmFilter,
    extraRequest: {},
    extraRequired: [],
    extraResponse: {},
    pageFilters: {
      filterByPolygonIntersection: arrayOf(
        tupleOf(
          [
            { type: 'number', minimum: -180, maximum: 180 },
            { type: 'number', minimum: -90, maximum: 90 },
          ],
          { description: '[lng, lat]' },
        ),
        { minItems: 4, maxItems: 1000, description: 'closed ring of [lng, lat] pairs (first equals last): only point alarms whose circle touches it' },
      ),
    },
  }),
} satisfies Record<AlarmKind, unknown>;

export const RegistrationIdParams = pathParams({ registrationId: uuid });
export const RecipientIdParams = pathParams({ recipientId });
/** Paging of the by-recipient lists (the contract does not show it; both are optional: page 0 of 20). */
export const RecipientPageQuery = {
  type: 'object',
  properties: {
    pageNumber: { ...pageNumber, description: '0-based page index; default 0' },
    pageSize: { ...pageSize, description: 'registrations per page, 1 to 100; default 20' },
  },
} as const;

/** The forecast threshold table (GET /v1/alarms/forecasts/thresholds). */
export const ForecastThresholdList = named(
  'ForecastThresholdList',
  openObject(
    {
      thresholds: arrayOf(
        openObject(
          {
            filterField: { type: 'string', description: 'filter field it belongs to, e.g. windGustThreshold' },
            name: { type: 'string', description: 'the value to send, e.g. STRONG_WIND' },
            metric: { type: 'string', description: 'metric named in the forecast payload violations, e.g. WIND_GUSTS_MAX' },
            unit: { type: 'string', description: 'unit of value and of the reported forecast values: mm, cm, km/h or °C' },
            value: { type: 'number', description: 'the threshold, in unit' },
            comparison: enumOf(['>=', '<='], { description: 'a day breaches when its daily value compares so with value' }),
            aggregation: { type: 'string', description: 'what the daily value is, e.g. maximum wind gust of the UTC day' },
          },
          ['filterField', 'name', 'metric', 'unit', 'value', 'comparison', 'aggregation'],
        ),
        { description: 'every accepted value, grouped by filter field, ascending severity' },
      ),
    },
    ['thresholds'],
  ),
);

/** Operator command: evaluate one forecast delivery slot now. */
export const RunForecastSlotRequest = named(
  'RunForecastSlotRequest',
  closedObject(
    {
      delivery: enumOf(ALARM_DELIVERY_TIMES, { description: 'MORNING: the 04:00 UTC slot; EVENING: the 16:00 UTC slot' }),
      date: { type: 'string', format: 'date', description: 'UTC day of the slot (YYYY-MM-DD); absent: the latest slot of delivery that is due' },
      rerun: {
        type: 'boolean',
        description: 'evaluate again although the slot was evaluated, sending new notifications (new ids); default false: an evaluated slot is left alone',
      },
    },
    ['delivery'],
  ),
);

export const RunForecastSlotResult = named(
  'RunForecastSlotResult',
  openObject(
    {
      slotId: { type: 'string', description: 'the slot, e.g. 2025-09-14T04:00Z' },
      evaluated: { type: 'boolean', description: 'false when the slot had been evaluated already (or is being evaluated) and rerun was not set' },
      late: { type: 'boolean', description: 'the evaluation ran more than the tolerance (10 min by default) after its scheduled time' },
      registrations: { type: 'integer', description: 'forecast registrations evaluated' },
      notifications: { type: 'integer', description: 'notifications published' },
      forecastRunId: { type: ['string', 'null'], description: 'forecast run used; null when no forecast data was stored' },
    },
    ['slotId', 'evaluated', 'late', 'registrations', 'notifications', 'forecastRunId'],
  ),
);
