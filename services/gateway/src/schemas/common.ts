import { API_LIMITS } from '@stormhook/limits';
import { arrayOf, closedObject, enumOf, named, openObject } from './json-schema.js';
import { ACCOUNT_TYPES, ROLES, SUBSCRIPTION_PLANS, USER_STATUSES } from '@stormhook/access';
import { enumNames, weatherV1 } from '@stormhook/proto';

export const uuid = { type: 'string', format: 'uuid' } as const;
export const nonEmptyString = (maxLength = 256) => ({ type: 'string', minLength: 1, maxLength }) as const;
export const url = { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2048 } as const;
/**
 * 9999-12-31T23:59:59.999Z: the last instant an ISO 8601 date-time writes with a four-digit year,
 * so every epoch we accept can be answered back as a valid `date-time` (and is an exact JSON number).
 */
export const MAX_EPOCH_MS = 253_402_300_799_999;
export const epochMillis = { type: 'integer', format: 'int64', minimum: 0, maximum: MAX_EPOCH_MS, description: 'epoch milliseconds' } as const;
export const dateTime = { type: 'string', format: 'date-time' } as const;

/** 0-based page index (interface.md 8). */
export const pageNumber = { type: 'integer', format: 'int32', minimum: 0 } as const;
/** Page size of every list with a documented bound: at most 100; a page of 0 items is meaningless. */
export const pageSize = { type: 'integer', format: 'int32', minimum: 1, maximum: API_LIMITS.pageSizeMax } as const;

/** Window of the precipitation and thunderstorm lists: 60 s to 5 days (interface.md 4.2, 4.3). */
export const backwardInterval = {
  type: 'integer',
  format: 'int64',
  minimum: API_LIMITS.listWindowSeconds.min,
  maximum: API_LIMITS.listWindowSeconds.max,
  description: 'seconds, reaching backward from endTimeEpoch',
} as const;

export const forecastDays = {
  type: 'integer',
  format: 'int32',
  minimum: API_LIMITS.forecastDays.min,
  maximum: API_LIMITS.forecastDays.max,
  description: 'number of UTC calendar days evaluated, counting today',
} as const;

export const GeoPoint = named(
  'GeoPoint',
  closedObject(
    {
      lng: { type: 'number', format: 'double', minimum: -180, maximum: 180 },
      lat: { type: 'number', format: 'double', minimum: -90, maximum: 90 },
    },
    ['lng', 'lat'],
  ),
);

export const Ring = named('Ring', arrayOf(GeoPoint, { description: 'closed ring: the first point equals the last' }));

export const Polygon = named('Polygon', openObject({ exterior: Ring, holes: arrayOf(Ring) }, ['exterior']));

export const Geometry = named(
  'Geometry',
  openObject({ polygons: arrayOf(Polygon) }, ['polygons'], { description: 'multi-polygon; a single polygon is a one-part multi-polygon' }),
);

// The weather value sets of the public API are the proto enums without their prefix.
export const INTENSITIES = enumNames(weatherV1.PrecipitationIntensity, 'PRECIPITATION_INTENSITY_');
export const LIGHTNING_TYPES = enumNames(weatherV1.LightningType, 'LIGHTNING_TYPE_');
export const THUNDERSTORM_SEVERITIES = enumNames(weatherV1.ThunderstormSeverity, 'THUNDERSTORM_SEVERITY_');
export const Intensity = named('PrecipitationIntensity', enumOf(INTENSITIES));

// Roles, user statuses, plans and account types have one home, the access rules the gateway decides with.
export { ROLES, USER_STATUSES, SUBSCRIPTION_PLANS, ACCOUNT_TYPES };

export const Role = named('Role', enumOf(ROLES));
export const UserStatus = named('UserStatus', enumOf(USER_STATUSES));
export const SubscriptionPlan = named('SubscriptionPlan', enumOf(SUBSCRIPTION_PLANS));
export const AccountType = named('AccountType', enumOf(ACCOUNT_TYPES));

/** interface.md 2.1. */
export const ErrorResponse = named(
  'ErrorResponse',
  openObject(
    {
      timestamp: {
        type: 'string',
        description: 'local date-time with nanosecond precision and no zone, e.g. 2026-11-21T14:03:07.123456789',
        pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{9}$',
      },
      status: { type: 'integer', format: 'int32' },
      error: { type: 'string', minLength: 1, description: 'HTTP reason phrase' },
      message: { type: 'string', minLength: 1 },
      path: { type: 'string', minLength: 1 },
      messages: arrayOf({ type: 'string' }),
    },
    ['timestamp', 'status', 'error', 'message', 'path'],
  ),
);
