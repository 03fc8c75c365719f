import {
  RecipientIdParams,
  RecipientPageQuery,
  RegistrationIdParams,
  alarmSchemas,
  type AlarmKind,
} from '../schemas/alarms.js';
import type { OperationId } from './operation-ids.js';
import { RESOURCE_ERRORS, type RouteSpec } from './route-spec.js';

const owner = 'any authenticated caller, on the registrations of their own account';

interface KindNames {
  noun: string;
  register: OperationId;
  update: OperationId;
  unregister: OperationId;
  getById: OperationId;
  page: OperationId;
  byRecipient: OperationId;
}

const NAMES: Record<AlarmKind, KindNames> = {
  geometries: {
    noun: 'geometry alarm',
    register: 'registerGeometryAlarm',
    update: 'updateGeometryAlarm',
    unregister: 'unregisterGeometryAlarm',
    getById: 'getGeometryAlarmById',
    page: 'getGeometryAlarmPage',
    byRecipient: 'getGeometryAlarmsByRecipientId',
  },
  forecasts: {
    noun: 'forecast alarm',
    register: 'registerForecastAlarm',
    update: 'updateForecastAlarm',
    unregister: 'unregisterForecastAlarm',
    getById: 'getForecastAlarmById',
    page: 'getForecastAlarmPage',
    byRecipient: 'getForecastAlarmsByRecipientId',
  },
  points: {
    noun: 'point alarm',
    register: 'registerPointAlarm',
    update: 'updatePointAlarm',
    unregister: 'unregisterPointAlarm',
    getById: 'getPointAlarmById',
    page: 'getPointAlarmPage',
    byRecipient: 'getPointAlarmsByRecipientId',
  },
};

/** The six registration operations, identical in shape for the three alarm kinds. */
function alarmRoutes(kind: AlarmKind): RouteSpec[] {
  const names = NAMES[kind];
  const schemas = alarmSchemas[kind];
  const base = `/v1/alarms/${kind}`;
  const tag = `${names.noun}s`;
  return [
    {
      operationId: names.register,
      method: 'post',
      path: `${base}/register`,
      summary: `Register a ${names.noun}`,
      description:
        'The first registration of an account carries the complete webhook; later ones carry only webhook.accountId ' +
        '(from GET /v1/users/me) and reuse the stored webhook.',
      tag,
      roles: owner,
      authenticated: true,
      request: { body: schemas.registerRequest },
      response: { status: 200, description: 'the stored registration, password masked', schema: schemas.registration },
      errors: RESOURCE_ERRORS,
    },
    {
      operationId: names.update,
      method: 'put',
      path: `${base}/update`,
      summary: `Update a ${names.noun}`,
      tag,
      roles: owner,
      authenticated: true,
      request: { body: schemas.updateRequest },
      response: { status: 200, description: 'the updated registration', schema: schemas.registration },
      errors: RESOURCE_ERRORS,
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
      response: { status: 204, description: 'removed; it is no longer returned' },
      errors: RESOURCE_ERRORS,
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
      errors: RESOURCE_ERRORS,
    },
    {
      operationId: names.page,
      method: 'post',
      path: `${base}/page`,
      summary: `List ${names.noun}s`,
      tag,
      roles: `${owner}; ADMIN and POWER_USER may name another accountId`,
      authenticated: true,
      request: { body: schemas.pageRequest },
      response: { status: 200, description: 'a page of registrations', schema: schemas.page },
      errors: RESOURCE_ERRORS,
    },
    {
      operationId: names.byRecipient,
      method: 'get',
      path: `${base}/get-by-recipient-id/{recipientId}`,
      summary: `List the ${names.noun}s of a recipient`,
      tag,
      roles: owner,
      authenticated: true,
      request: { params: RecipientIdParams, query: RecipientPageQuery },
      response: { status: 200, description: 'a page of registrations', schema: schemas.page },
      errors: RESOURCE_ERRORS,
    },
  ];
}

export const alarmRegistrationRoutes: readonly RouteSpec[] = [
  ...alarmRoutes('geometries'),
  ...alarmRoutes('forecasts'),
  ...alarmRoutes('points'),
  // The stored webhook's own operations (updateWebhook among them) are in routes/webhooks.ts.
];
