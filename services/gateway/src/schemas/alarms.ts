import { GeoPoint, dateTime, forecastDays, nonEmptyString, pageNumber, pageSize, uuid } from './common.js';
import { ForecastAlarmFilter, WeatherAlarmFilter } from './alarm-filters.js';
import { arrayOf, closedObject, enumOf, named, openObject, pathParams, type JsonSchema } from './json-schema.js';
import { WebhookConfig, WebhookConfigRequest } from './webhook.js';

const areaId: JsonSchema = { type: 'integer', format: 'int64', minimum: 0 };
const recipientId = { ...nonEmptyString(256), description: 'caller-defined external reference of the recipient' };

/** interface.md 2.3: city, district or neighbourhood level; `type` is accepted for symmetry with 2.4. */
export const GeometryAlarmBoundary = named(
  'GeometryAlarmBoundary',
  closedObject(
    { type: { const: 'ADMINISTRATIVE' }, cityId: areaId, districtId: areaId, neighborhoodId: areaId },
    ['cityId'],
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

/**
 * interface.md 2.5. The contract gives no unit or bound for radius; meters as in the incumbent's
 * examples, capped like the geometry crop (200 km).
 */
export const PointAlarmBoundary = named(
  'PointAlarmBoundary',
  closedObject(
    { point: GeoPoint, radius: { type: 'number', format: 'double', exclusiveMinimum: 0, maximum: 200000, description: 'meters' } },
    ['point', 'radius'],
  ),
);

export const ALARM_DELIVERY_TIMES = ['MORNING', 'EVENING'] as const;

export type AlarmKind = 'geometries' | 'forecasts' | 'points';

interface KindSchemas {
  label: string;
  boundary: JsonSchema;
  filter: JsonSchema;
  /** Request fields beyond the common ones (forecast alarms only). */
  extraRequest: Record<string, JsonSchema>;
  extraRequired: readonly string[];
  extraResponse: Record<string, JsonSchema>;
  pageFilters: Record<string, JsonSchema>;
}

const KINDS: Record<AlarmKind, KindSchemas> = {
  geometries: {
    label: 'GeometryAlarm',
    boundary: GeometryAlarmBoundary,
    filter: WeatherAlarmFilter,
    extraRequest: {},
    extraRequired: [],
    extraResponse: {},
    pageFilters: { filterByBoundary: GeometryAlarmBoundary },
  },
  forecasts: {
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
        { readOnly: true, description: 'administrative area resolved from a POINT boundary' },
      ),
    },
    pageFilters: { filterByBoundary: ForecastAlarmBoundary },
  },
  points: {
    label: 'PointAlarm',
    boundary: PointAlarmBoundary,
    filter: WeatherAlarmFilter,
    extraRequest: {},
    extraRequired: [],
    extraResponse: {},
    pageFilters: {
      filterByPolygonIntersection: arrayOf(
        {
          type: 'array',
          prefixItems: [
            { type: 'number', minimum: -180, maximum: 180 },
            { type: 'number', minimum: -90, maximum: 90 },
          ],
          items: false,
          minItems: 2,
          description: '[lng, lat]',
        },
        { minItems: 4, maxItems: 1000, description: 'closed ring of [lng, lat] pairs' },
      ),
    },
  },
};

export interface AlarmSchemas {
  registerRequest: JsonSchema;
  updateRequest: JsonSchema;
  registration: JsonSchema;
  pageRequest: JsonSchema;
  page: JsonSchema;
}

function buildAlarmSchemas(kind: KindSchemas): AlarmSchemas {
  const requestFields = {
    registrationId: uuid,
    recipientId,
    boundary: kind.boundary,
    webhook: WebhookConfigRequest,
    filter: kind.filter,
    ...kind.extraRequest,
  };
  const required = ['recipientId', 'boundary', 'webhook', 'filter', ...kind.extraRequired];
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
        warnings: arrayOf({ type: 'string' }, { description: 'non-critical warnings produced while processing' }),
      },
      ['registrationId', 'recipientId', 'boundary', 'filter'],
    ),
  );
  return {
    registerRequest: named(`${kind.label}RegisterRequest`, closedObject(requestFields, required)),
    updateRequest: named(`${kind.label}UpdateRequest`, closedObject(requestFields, ['registrationId', ...required])),
    registration,
    pageRequest: named(
      `${kind.label}PageRequest`,
      closedObject({
        pageNumber,
        pageSize,
        filterByRecipientIds: arrayOf(recipientId, { maxItems: 100 }),
        accountId: { ...uuid, description: 'another account to query (ADMIN and POWER_USER only)' },
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

export const alarmSchemas: Record<AlarmKind, AlarmSchemas> = {
  geometries: buildAlarmSchemas(KINDS.geometries),
  forecasts: buildAlarmSchemas(KINDS.forecasts),
  points: buildAlarmSchemas(KINDS.points),
};

export const RegistrationIdParams = pathParams({ registrationId: uuid });
export const RecipientIdParams = pathParams({ recipientId });
/** Paging of the by-recipient lists (the contract does not show it; both are optional). */
export const RecipientPageQuery: JsonSchema = {
  type: 'object',
  properties: { pageNumber, pageSize },
};
