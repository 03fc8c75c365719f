import type { MeteredService } from './metered-services.js';
import type { Role } from './roles.js';

/**
 * What the gateway asks before running an operation: who may call it and which metered service it
 * consumes. Keys are the gateway's operationIds (services/gateway contract/operation-ids.ts) plus the
 * identity routes still to be mounted. An operation missing here is denied (fail closed).
 * WARNING: the service names are stored in subscriptions; moving an operation to another service
 * changes what customers pay for.
 */
export interface OperationRule {
  /** 'public': no identity needed (login, password reset); otherwise the lowest role allowed. */
  auth: 'public' | Role;
  /** The subscription must grant this service; absent for account and user management. */
  service?: MeteredService;
  /**
   * Whether a call counts against the service's invocation limit. Deleting a registration does not,
   * so a customer whose quota is spent can still clean up.
   */
  quota: boolean;
}

const open: OperationRule = { auth: 'public', quota: false };
const signedIn: OperationRule = { auth: 'GUEST', quota: false };
const admin: OperationRule = { auth: 'ADMIN', quota: false };
const data = (service: MeteredService): OperationRule => ({ auth: 'API_USER', service, quota: true });
const cleanup = (service: MeteredService): OperationRule => ({ auth: 'API_USER', service, quota: false });
/**
 * A back-test (issue 24) needs what registering needs (role, a live plan with the alarm kind, its
 * geography) but is not one of the kind's invocations: it reads a whole window of weather history,
 * so the gateway counts it on an hourly allowance of its own per account (GATEWAY_BACKTESTS_PER_ACCOUNT_PER_HOUR).
 */
const backtest = (service: MeteredService): OperationRule => ({ auth: 'API_USER', service, quota: false });

function alarmOperations(kind: 'Geometry' | 'Forecast' | 'Point', service: MeteredService): Record<string, OperationRule> {
  return {
    [`register${kind}Alarm`]: data(service),
    [`update${kind}Alarm`]: data(service),
    [`unregister${kind}Alarm`]: cleanup(service),
    [`get${kind}AlarmById`]: data(service),
    [`get${kind}AlarmPage`]: data(service),
    [`get${kind}AlarmsByRecipientId`]: data(service),
    [`backtest${kind}Alarm`]: backtest(service),
  };
}

export const OPERATION_RULES: Readonly<Record<string, OperationRule>> = {
  // weather data (4.1 - 4.4)
  getGeometryByEventIds: data('PRECIPITATION'),
  getPrecipitationPage: data('PRECIPITATION'),
  getThunderstormPage: data('THUNDERSTORM'),
  getCurrentForecast: data('FORECAST'),
  // the incumbent's extra data operations (weather-data issue)
  getPrecipitationsWithin: data('PRECIPITATION'),
  getThunderstormByEventId: data('THUNDERSTORM'),
  getHourlyForecast: data('FORECAST'),
  getDailyForecast: data('FORECAST'),
  // The live weather stream (issue 25): a storm map (cells, their lightning, the rain around them),
  // so it belongs to THUNDERSTORM; opening a stream is one invocation, however long it stays open.
  streamWeather: data('THUNDERSTORM'),
  // alarms (4.5 - 4.8)
  ...alarmOperations('Geometry', 'ALARM_GEOMETRY'),
  ...alarmOperations('Forecast', 'ALARM_FORECAST'),
  ...alarmOperations('Point', 'ALARM_POINT'),
  // the threshold table is documentation (no quota); running a forecast slot is an operator action
  listForecastThresholds: signedIn,
  runForecastSlot: admin,
  // the account's stored webhook and its delivery log (not metered; the gateway resolves the account)
  getWebhook: { auth: 'API_USER', quota: false },
  updateWebhook: { auth: 'API_USER', quota: false },
  getWebhookSigningSecret: { auth: 'API_USER', quota: false },
  rotateWebhookSigningSecret: { auth: 'API_USER', quota: false },
  enableWebhook: { auth: 'API_USER', quota: false },
  sendWebhookTest: { auth: 'API_USER', quota: false },
  getWebhookHealth: { auth: 'API_USER', quota: false },
  recoverWebhookDeliveries: { auth: 'API_USER', quota: false },
  getWebhookRecovery: { auth: 'API_USER', quota: false },
  getDeliveryPage: { auth: 'API_USER', quota: false },
  getDelivery: { auth: 'API_USER', quota: false },
  redeliverDelivery: { auth: 'API_USER', quota: false },
  // administrative areas (4.9 - 4.12)
  listGeometryAlarmCities: data('GEO'),
  getNeighborhood: data('GEO'),
  locateArea: data('GEO'),
  getDistrict: data('GEO'),
  listCountryCities: data('GEO'),
  // accounts (4.13 - 4.15) and their additions; ownership is checked by the use cases
  createAccount: signedIn,
  updateAccount: signedIn,
  getAccount: signedIn,
  requestPhoneActivation: signedIn,
  activatePhoneNumber: signedIn,
  getSubscription: signedIn,
  updateSubscription: admin,
  // users (4.16 - 4.19)
  getUserPage: admin,
  getCurrentUser: signedIn,
  getUser: { auth: 'POWER_USER', quota: false },
  createUser: admin,
  changeUserRoleAndStatus: admin,
  requestPasswordReset: open,
  resetPassword: open,
  // API keys: owner or ADMIN, checked by the use case
  createApiKey: signedIn,
  listApiKeys: signedIn,
  revokeApiKey: signedIn,
  // authentication
  login: open,
  refreshToken: open,
  logout: open,
  // system
  getHealth: open,
  getLiveness: open,
  getReadiness: open,
  getOpenApiDocument: open,
  getAsyncApiDocument: open,
};

export function operationRule(operationId: string): OperationRule | undefined {
  return Object.hasOwn(OPERATION_RULES, operationId) ? OPERATION_RULES[operationId] : undefined;
}
