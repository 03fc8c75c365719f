import {
  ForecastThresholdList,
  RecipientIdParams,
  RecipientPageQuery,
  RegistrationIdParams,
  RunForecastSlotRequest,
  RunForecastSlotResult,
  alarmSchemas,
  type AlarmKind,
} from '../schemas/alarms.js';
import { BACKTEST_LOOKBACK_DAYS, BacktestResult } from '../schemas/alarm-backtest.js';
import { DEFAULT_BACKTESTS_PER_ACCOUNT_PER_HOUR } from '../http/rate-limit-env.js';
import type { OperationId } from '../contract/operation-ids.js';
import type { ErrorStatus, RouteSpec } from '../contract/route-spec.js';
import type { RouteTag } from '../contract/route-tags.js';

const owner = 'any authenticated caller with the alarm kind in their subscription, on the registrations of their own account; ADMIN on every account';

/**
 * Alarm operations are metered per kind (402, 403 and 429 of the subscription), a foreign or unknown
 * id is a 404 (OWASP API1), and the alarm-matcher or its geo and notifier calls may be down (503).
 */
const ALARM_ERRORS: readonly ErrorStatus[] = [400, 401, 402, 403, 404, 429, 500, 503];
/** Writes add 409: the recipient already has an alarm on the area, or a full webhook differs from the stored one. */
const ALARM_WRITE_ERRORS: readonly ErrorStatus[] = [...ALARM_ERRORS, 409];

/** Contract section 3, as the register and update operations apply it. */
const WEBHOOK_RULES =
  'Webhook (contract section 3, one stored webhook per account): the first registration of an account carries the complete ' +
  'webhook without accountId, and it is stored for the account. Later registrations send only webhook.accountId (the ' +
  'account id of GET /v1/users/me) and reuse the stored url, authentication, request headers and delivery policy. An ' +
  "accountId with no stored webhook, or another account's id, is a 400. A complete webhook that differs from the stored one " +
  '(url, httpMethod, contentType, authentication type or username, requestHeaders, deliveryPolicy values sent) is a 409: ' +
  'change the stored webhook with PUT /v1/alarms/webhooks/update. The answer shows the stored webhook without ' +
  'authentication.type and with the password masked.';

/** What each kind's register and update explain beyond the webhook rules. */
const KIND_RULES: Record<AlarmKind, string> = {
  geometries:
    'Area: the most specific of cityId, districtId and neighborhoodId (the polygon, simplified by 25 m), checked against ' +
    'the boundary data (unknown ids, a district outside the city, a neighbourhood outside the district: 400 naming the field). ' +
    'Matching: lightning whose located point lies in the area; thunderstorms whose cell and/or threat polygon touches it; ' +
    'precipitation areas touching it; each passing its filter member (see WeatherAlarmFilter). One registration per area per recipientId.',
  forecasts:
    'Boundary ADMINISTRATIVE (cityId and districtId, the district must lie in the city) is evaluated as the worst value over ' +
    "the district's forecast grid cells (naming the cell); POINT uses the forecast grid cell nearest the point (within 50 km) and " +
    'fills resolvedAdministrativeBoundary with the district containing it. At each selected delivery slot (MORNING 04:00 UTC, ' +
    'EVENING 16:00 UTC) today and forecastDays - 1 more UTC days are evaluated with the latest forecast run, and only days ' +
    'breaching a threshold are delivered. Thresholds: see ForecastAlarmFilter and GET /v1/alarms/forecasts/thresholds. One ' +
    'registration per district or point per recipientId.',
  points:
    'Area: the circle of radius metres (100 to 200000) around point. Matching as for geometry alarms: lightning inside the ' +
    'circle; thunderstorm polygons and precipitation areas touching it; each passing its filter member (see ' +
    'WeatherAlarmFilter). One registration per point and radius per recipientId.',
};

export interface KindNames {
  noun: string;
  tag: RouteTag;
  register: OperationId;
  update: OperationId;
  unregister: OperationId;
  getById: OperationId;
  page: OperationId;
  byRecipient: OperationId;
  backtest: OperationId;
}

/** The operations of each alarm kind; handlers/alarms.ts binds its handlers by these names. */
export const ALARM_OPERATIONS: Readonly<Record<AlarmKind, KindNames>> = {
  geometries: {
    noun: 'geometry alarm',
    tag: 'geometry alarms',
    register: 'registerGeometryAlarm',
    update: 'updateGeometryAlarm',
    unregister: 'unregisterGeometryAlarm',
    getById: 'getGeometryAlarmById',
    page: 'getGeometryAlarmPage',
    byRecipient: 'getGeometryAlarmsByRecipientId',
    backtest: 'backtestGeometryAlarm',
  },
  forecasts: {
    noun: 'forecast alarm',
    tag: 'forecast alarms',
    register: 'registerForecastAlarm',
    update: 'updateForecastAlarm',
    unregister: 'unregisterForecastAlarm',
    getById: 'getForecastAlarmById',
    page: 'getForecastAlarmPage',
    byRecipient: 'getForecastAlarmsByRecipientId',
    backtest: 'backtestForecastAlarm',
  },
  points: {
    noun: 'point alarm',
    tag: 'point alarms',
    register: 'registerPointAlarm',
    update: 'updatePointAlarm',
    unregister: 'unregisterPointAlarm',
    getById: 'getPointAlarmById',
    page: 'getPointAlarmPage',
    byRecipient: 'getPointAlarmsByRecipientId',
    backtest: 'backtestPointAlarm',
  },
};

/**
 * A back-test stores nothing (no 409); a registrationId naming no registration of the caller's is a 404
 * as elsewhere; its 429 is also the account's hourly back-test allowance (http/rate-limits.ts).
 */
const BACKTEST_ERRORS: readonly ErrorStatus[] = [400, 401, 402, 403, 404, 429, 500, 503];

/** What a back-test does and answers, the same for the three kinds. */
const BACKTEST_RULES =
  'Runs the registration in the body over a past window of the weather history with the live matching code, and answers ' +
  'what it would have sent: nothing is stored, no callback is delivered or signed, and the stored webhook is not read. ' +
  `The body is the register body plus from and to (epoch milliseconds UTC; from at most ${BACKTEST_LOOKBACK_DAYS} days back, ` +
  'to not in the future; a minute of clock skew is clipped), validated as register validates it (400 naming the field), ' +
  "except that webhook may be left out; one sent is not used. A registrationId names one of the caller's registrations of " +
  'this kind (404 otherwise): the back-test then runs under its id, so the sample callbacks carry the ids its live ' +
  "deliveries had; the body still decides the area and the filter. Plan geography, roles and the subscription's alarm kind apply " +
  'as for registering. The answer: callbacks per Europe/Istanbul day and per callback type and stage, the first and last ' +
  'callback time, up to 20 sample payloads byte-for-byte as the live path builds them plus "simulation": true, the coverage ' +
  "of each kind of data the filter reads (a gap means no data, not quiet weather), and a sweep of the filter's main " +
  "threshold (the alarms each candidate value would have started: a strike's callback, a storm's or rain area's START, a " +
  "forecast slot's alarm; not callbacks, which are not monotonic in a threshold).\n\n" +
  "Quota: a back-test reads the whole window of history, so it does not count against the kind's invocation limit but " +
  'against a back-test allowance of its own per account and clock hour (GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR, default ' +
  `${DEFAULT_BACKTESTS_PER_ACCOUNT_PER_HOUR}), shared by every gateway replica; over it the answer is 429 with Retry-After. ` +
  'Failed back-tests do not count.';

/** The six registration operations, identical in shape for the three alarm kinds, and the back-test. */
function alarmRoutes(kind: AlarmKind): RouteSpec[] {
  const names = ALARM_OPERATIONS[kind];
  const schemas = alarmSchemas[kind];
  const base = `/v1/alarms/${kind}`;
  const tag = names.tag;
  return [
    {
      operationId: names.register,
      method: 'post',
      path: `${base}/register`,
      summary: `Register a ${names.noun}`,
      description: `${KIND_RULES[kind]}\n\n${WEBHOOK_RULES}\n\nregistrationId is assigned by the service (one sent is ignored, with a warning).`,
      tag,
      roles: owner,
      authenticated: true,
      request: { body: schemas.registerRequest },
      response: { status: 200, description: 'the stored registration, password masked', schema: schemas.registration },
      errors: ALARM_WRITE_ERRORS,
    },
    {
      operationId: names.update,
      method: 'put',
      path: `${base}/update`,
      summary: `Update a ${names.noun}`,
      description:
        `Replaces the registration named by registrationId with the full registration sent (createdAt kept, updatedAt set). ` +
        `${KIND_RULES[kind]}\n\n${WEBHOOK_RULES}`,
      tag,
      roles: owner,
      authenticated: true,
      request: { body: schemas.updateRequest },
      response: { status: 200, description: 'the updated registration', schema: schemas.registration },
      errors: ALARM_WRITE_ERRORS,
    },
    {
      operationId: names.unregister,
      method: 'delete',
      path: `${base}/unregister/{registrationId}`,
      summary: `Delete a ${names.noun}`,
      tag,
      roles: owner,
      authenticated: true,
      request: { params: RegistrationIdParams },
      response: { status: 204, description: 'removed; it is no longer returned and no longer triggers' },
      errors: ALARM_ERRORS,
    },
    {
      operationId: names.getById,
      method: 'get',
      path: `${base}/get-by-id/{registrationId}`,
      summary: `Get a ${names.noun} by its identifier`,
      tag,
      roles: owner,
      authenticated: true,
      request: { params: RegistrationIdParams },
      response: { status: 200, description: 'the registration', schema: schemas.registration },
      errors: ALARM_ERRORS,
    },
    {
      operationId: names.page,
      method: 'post',
      path: `${base}/page`,
      summary: `List ${names.noun}s`,
      description:
        'Oldest first. Filters: filterByRecipientIds, filterByBoundary (exactly that boundary) or, for point alarms, ' +
        "filterByPolygonIntersection (circles touching the ring). Without accountId the caller's own account is listed " +
        '(ADMIN: every account); naming another account needs ADMIN or POWER_USER (403 otherwise).',
      tag,
      roles: `${owner}; ADMIN and POWER_USER may name another accountId`,
      authenticated: true,
      request: { body: schemas.pageRequest },
      response: { status: 200, description: 'a page of registrations', schema: schemas.page },
      errors: ALARM_ERRORS,
    },
    {
      operationId: names.backtest,
      method: 'post',
      path: `${base}/backtest`,
      summary: `Back-test a ${names.noun} over the last ${BACKTEST_LOOKBACK_DAYS} days`,
      description: `${BACKTEST_RULES}\n\n${KIND_RULES[kind]}`,
      tag,
      roles: owner,
      authenticated: true,
      request: { body: schemas.backtestRequest },
      response: { status: 200, description: 'what the registration would have sent in the window', schema: BacktestResult },
      errors: BACKTEST_ERRORS,
    },
    {
      operationId: names.byRecipient,
      method: 'get',
      path: `${base}/get-by-recipient-id/{recipientId}`,
      summary: `List the ${names.noun}s of a recipient`,
      description: 'Oldest first, paged by the pageNumber (default 0) and pageSize (1 to 100, default 20) query parameters.',
      tag,
      roles: owner,
      authenticated: true,
      request: { params: RecipientIdParams, query: RecipientPageQuery },
      response: { status: 200, description: 'a page of registrations', schema: schemas.page },
      errors: ALARM_ERRORS,
    },
  ];
}

/** The forecast threshold table and the operator's on-demand slot evaluation. */
const forecastRoutes: RouteSpec[] = [
  {
    operationId: 'listForecastThresholds',
    method: 'get',
    path: '/v1/alarms/forecasts/thresholds',
    summary: 'List the forecast alarm thresholds',
    description:
      'Every value the five forecast filter fields accept, with the metric, the unit, the numeric threshold and how a daily ' +
      'value breaches it (e.g. windGustThreshold STRONG_WIND: maximum gust of the UTC day >= 50 km/h).',
    tag: 'forecast alarms',
    roles: 'any authenticated caller',
    authenticated: true,
    request: {},
    response: { status: 200, description: 'the threshold table', schema: ForecastThresholdList },
    errors: [401, 500, 503],
  },
  {
    operationId: 'runForecastSlot',
    method: 'post',
    path: '/v1/alarms/forecasts/run-slot',
    summary: 'Evaluate a forecast delivery slot now (operators)',
    description:
      'Evaluates the forecast alarms of one delivery slot at once, as the scheduler does at 04:00 and 16:00 UTC. A slot is ' +
      'evaluated exactly once: without rerun an evaluated slot is left alone (evaluated false); with rerun it is evaluated ' +
      'again and sends new notifications.',
    tag: 'forecast alarms',
    roles: 'ADMIN only',
    authenticated: true,
    request: { body: RunForecastSlotRequest },
    response: { status: 200, description: 'the outcome of the evaluation', schema: RunForecastSlotResult },
    errors: [400, 401, 403, 500, 503],
  },
];

export const alarmRegistrationRoutes: readonly RouteSpec[] = [
  ...alarmRoutes('geometries'),
  ...alarmRoutes('forecasts'),
  ...alarmRoutes('points'),
  ...forecastRoutes,
  // The stored webhook's own operations (updateWebhook among them) are in routes/webhooks.ts.
];
