import { COVERAGE, inCoverage, MAX_RADIUS_M, MIN_RADIUS_M } from './coverage.js';
import type { RegistrationDraft, WebhookDraft } from './draft.js';
import { fail, invalid, ok, type Result } from './errors.js';
import { validateForecastFilter } from './forecast-filter.js';
import {
  DELIVERIES,
  KIND_NOUN,
  KIND_PATH,
  type AdministrativeBoundary,
  type Circle,
  type Delivery,
  type ForecastBoundary,
  type ForecastFilter,
  type LatLng,
  type WeatherFilter,
} from './registration.js';
import { validateWeatherFilter } from './weather-filter.js';

export const MAX_RECIPIENT_ID_LENGTH = 256;
export const MIN_FORECAST_DAYS = 1;
export const MAX_FORECAST_DAYS = 14;

interface Common {
  registrationId: string;
  recipientId: string;
  warnings: string[];
}

/**
 * A draft whose area and filter fields are all well-formed; geo is checked by the use case. What a
 * back-test runs: it delivers nothing, so it needs no webhook.
 */
export type WellFormedDraft =
  | (Common & { kind: 'GEOMETRY'; area: AdministrativeBoundary; filter: WeatherFilter })
  | (Common & { kind: 'POINT'; circle: Circle; filter: WeatherFilter })
  | (Common & { kind: 'FORECAST'; boundary: ForecastBoundary; filter: ForecastFilter; forecastDays: number; delivery: Delivery[] });

/** A draft to register or update: well-formed and with its webhook, whose rules the use case applies. */
export type ValidInput = WellFormedDraft & { webhook: WebhookDraft };

/**
 * register and update need the webhook (contract section 3); a back-test takes the same body with the
 * webhook optional, checks its shape when sent, and never uses it.
 */
export type DraftMode = 'register' | 'update' | 'backtest';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

function areaId(value: number | undefined, field: string): Result<number | undefined> {
  if (value === undefined) return ok(undefined);
  if (!Number.isSafeInteger(value) || value <= 0) return fail(invalid(field, 'must be a positive integer id'));
  return ok(value);
}

function point(value: LatLng | undefined, field: string): Result<LatLng> {
  if (!value) return fail(invalid(field, 'is required'));
  if (!Number.isFinite(value.lat) || value.lat < -90 || value.lat > 90) return fail(invalid(`${field}.lat`, 'must be between -90 and 90 degrees'));
  if (!Number.isFinite(value.lng) || value.lng < -180 || value.lng > 180) return fail(invalid(`${field}.lng`, 'must be between -180 and 180 degrees'));
  if (!inCoverage(value.lng, value.lat)) {
    return fail(
      invalid(
        field,
        `lies outside the area the service covers (longitude ${COVERAGE.minLng} to ${COVERAGE.maxLng}, latitude ${COVERAGE.minLat} to ${COVERAGE.maxLat})`,
      ),
    );
  }
  return ok({ lat: value.lat, lng: value.lng });
}

function geometryBoundary(draft: RegistrationDraft): Result<AdministrativeBoundary> {
  const b = draft.geometryBoundary;
  if (!b) return fail(invalid('boundary', 'is required: cityId, and optionally districtId and neighborhoodId'));
  const city = areaId(b.cityId, 'boundary.cityId');
  if (!city.ok) return city;
  if (city.value === undefined) return fail(invalid('boundary.cityId', 'is required'));
  const district = areaId(b.districtId, 'boundary.districtId');
  if (!district.ok) return district;
  const neighborhood = areaId(b.neighborhoodId, 'boundary.neighborhoodId');
  if (!neighborhood.ok) return neighborhood;
  return ok({
    cityId: city.value,
    ...(district.value !== undefined ? { districtId: district.value } : {}),
    ...(neighborhood.value !== undefined ? { neighborhoodId: neighborhood.value } : {}),
  });
}

function forecastBoundary(draft: RegistrationDraft): Result<ForecastBoundary> {
  const b = draft.forecastBoundary;
  if (b?.administrative) {
    const city = areaId(b.administrative.cityId, 'boundary.cityId');
    if (!city.ok) return city;
    const district = areaId(b.administrative.districtId, 'boundary.districtId');
    if (!district.ok) return district;
    if (city.value === undefined) return fail(invalid('boundary.cityId', 'is required for type ADMINISTRATIVE'));
    if (district.value === undefined) return fail(invalid('boundary.districtId', 'is required for type ADMINISTRATIVE'));
    return ok({ type: 'ADMINISTRATIVE', cityId: city.value, districtId: district.value });
  }
  if (b?.point) {
    const at = point(b.point, 'boundary.point');
    if (!at.ok) return at;
    return ok({ type: 'POINT', point: at.value });
  }
  return fail(invalid('boundary', 'is required: type ADMINISTRATIVE with cityId and districtId, or type POINT with point'));
}

function circle(draft: RegistrationDraft): Result<Circle> {
  const b = draft.pointBoundary;
  if (!b) return fail(invalid('boundary', 'is required: point and radius'));
  const at = point(b.point, 'boundary.point');
  if (!at.ok) return at;
  if (!Number.isFinite(b.radiusM) || b.radiusM < MIN_RADIUS_M || b.radiusM > MAX_RADIUS_M) {
    return fail(invalid('boundary.radius', `must be from ${MIN_RADIUS_M} to ${MAX_RADIUS_M} metres`));
  }
  return ok({ point: at.value, radiusM: b.radiusM });
}

function deliveries(raw: string[]): Result<Delivery[]> {
  const picked: Delivery[] = [];
  for (const [index, value] of raw.entries()) {
    if (!(DELIVERIES as readonly string[]).includes(value)) {
      return fail(invalid(`forecastAlarmDelivery[${index}]`, `must be one of ${DELIVERIES.join(', ')} (04:00 and 16:00 UTC)`));
    }
    if (!picked.includes(value as Delivery)) picked.push(value as Delivery);
  }
  if (picked.length === 0) return fail(invalid('forecastAlarmDelivery', 'needs at least one of MORNING (04:00 UTC) and EVENING (16:00 UTC)'));
  return ok(DELIVERIES.filter((d) => picked.includes(d)));
}

/** The webhook member of the result: kept to register or update; dropped by a back-test, with a warning when one was sent. */
function webhookOf(webhook: WebhookDraft | undefined, mode: DraftMode, warnings: string[]): { webhook?: WebhookDraft } {
  if (mode !== 'backtest') return webhook ? { webhook } : {};
  if (webhook) warnings.push(BACKTEST_WEBHOOK_WARNING);
  return {};
}

/** The webhook's shape; undefined when a back-test was sent none (it delivers nothing). */
function webhookShape(webhook: WebhookDraft | undefined, mode: DraftMode): Result<WebhookDraft | undefined> {
  const absent = !webhook || (webhook.accountId === '' && !webhook.config?.url);
  if (absent && mode === 'backtest') return ok(undefined);
  if (!webhook || absent) {
    return fail(invalid('webhook', 'is required: the complete webhook on the first registration of an account, later only webhook.accountId'));
  }
  if (webhook.accountId !== '' && !isUuid(webhook.accountId))
    return fail(invalid('webhook.accountId', 'must be a UUID (the account id from GET /v1/users/me)'));
  return ok(webhook);
}

/** What a back-test says about a webhook it was sent: nothing reads it, and the stored one is left alone. */
export const BACKTEST_WEBHOOK_WARNING = 'webhook is not used by a back-test: nothing is delivered, and the stored webhook is left as it is';

/**
 * Checks every field that can be checked without other services, in request order (first error
 * wins). `update` requires registrationId; a register call ignores one, with a warning. A back-test
 * validates exactly as register does, except that the webhook may be left out (when sent, its shape
 * is checked and it is dropped, with a warning) and a registrationId, when sent, names the registration
 * whose id the back-test runs under.
 */
export function validateDraft(draft: RegistrationDraft, mode: 'register' | 'update'): Result<ValidInput>;
export function validateDraft(draft: RegistrationDraft, mode: 'backtest'): Result<WellFormedDraft>;
export function validateDraft(draft: RegistrationDraft, mode: DraftMode): Result<ValidInput | WellFormedDraft> {
  const warnings: string[] = [];
  const registrationId = draft.registrationId.trim();
  if (mode === 'update') {
    if (registrationId === '') return fail(invalid('registrationId', 'is required to update a registration'));
    if (!isUuid(registrationId)) return fail(invalid('registrationId', 'must be a UUID'));
  } else if (registrationId !== '' && mode === 'backtest') {
    // A back-test of one of the caller's registrations runs under its id, so the callbacks it shows carry the ids
    // the live path sent (the caller can compare them with its deliveries); the command checks the id is theirs.
    if (!isUuid(registrationId)) return fail(invalid('registrationId', 'must be a UUID'));
  } else if (registrationId !== '') {
    warnings.push(
      `registrationId is assigned by the service; the value sent was ignored (update a ${KIND_NOUN[draft.kind]} with PUT /v1/alarms/${KIND_PATH[draft.kind]}/update)`,
    );
  }
  const recipientId = draft.recipientId.trim();
  if (recipientId === '') return fail(invalid('recipientId', 'is required'));
  if (recipientId.length > MAX_RECIPIENT_ID_LENGTH) return fail(invalid('recipientId', `must be at most ${MAX_RECIPIENT_ID_LENGTH} characters`));
  const common = { registrationId: mode === 'register' ? '' : registrationId, recipientId };

  switch (draft.kind) {
    case 'GEOMETRY':
    case 'POINT': {
      const boundary = draft.kind === 'GEOMETRY' ? geometryBoundary(draft) : circle(draft);
      if (!boundary.ok) return boundary;
      const webhook = webhookShape(draft.webhook, mode);
      if (!webhook.ok) return webhook;
      const filter = validateWeatherFilter(draft.weatherFilter);
      if (!filter.ok) return filter;
      warnings.push(...filter.value.warnings);
      const base = { ...common, ...webhookOf(webhook.value, mode, warnings), filter: filter.value.value, warnings };
      return draft.kind === 'GEOMETRY'
        ? ok({ ...base, kind: 'GEOMETRY', area: boundary.value as AdministrativeBoundary })
        : ok({ ...base, kind: 'POINT', circle: boundary.value as Circle });
    }
    case 'FORECAST': {
      const boundary = forecastBoundary(draft);
      if (!boundary.ok) return boundary;
      if (!Number.isInteger(draft.forecastDays) || draft.forecastDays < MIN_FORECAST_DAYS || draft.forecastDays > MAX_FORECAST_DAYS) {
        return fail(invalid('forecastDays', `must be an integer from ${MIN_FORECAST_DAYS} to ${MAX_FORECAST_DAYS} (UTC days counting today)`));
      }
      const delivery = deliveries(draft.delivery);
      if (!delivery.ok) return delivery;
      const webhook = webhookShape(draft.webhook, mode);
      if (!webhook.ok) return webhook;
      const filter = validateForecastFilter(draft.forecastFilter);
      if (!filter.ok) return filter;
      warnings.push(...filter.value.warnings);
      return ok({
        ...common,
        kind: 'FORECAST',
        boundary: boundary.value,
        forecastDays: draft.forecastDays,
        delivery: delivery.value,
        ...webhookOf(webhook.value, mode, warnings),
        filter: filter.value.value,
        warnings,
      });
    }
  }
}
