/** The stored webhook (4.19) and its signing secrets: each answer shows the webhook or a secret. */
export const STORED_WEBHOOK_OPERATIONS = [
  'getWebhook',
  'updateWebhook',
  'getWebhookSigningSecret',
  'rotateWebhookSigningSecret',
  'enableWebhook',
  'sendWebhookTest',
] as const;

/**
 * Every operation of the /v1 surface. Handlers are plugged in by these names
 * (`createApp({ handlers: { getUser: ... } })`) and they are the operationIds of openapi.json, which
 * generated clients turn into method names: renaming one is a breaking change.
 */
export const OPERATION_IDS = [
  // weather data (interface.md 4.1 - 4.4)
  'getGeometryByEventIds',
  'getPrecipitationPage',
  'getThunderstormPage',
  'getCurrentForecast',
  // weather data the incumbent offers beyond the contract's section 4
  'getPrecipitationsWithin',
  'getThunderstormByEventId',
  'getHourlyForecast',
  'getDailyForecast',
  // the live weather stream (issue 25)
  'streamWeather',
  // geometry alarms (4.5, 4.6, 4.9, 4.10)
  'registerGeometryAlarm',
  'updateGeometryAlarm',
  'unregisterGeometryAlarm',
  'getGeometryAlarmById',
  'getGeometryAlarmPage',
  'getGeometryAlarmsByRecipientId',
  'backtestGeometryAlarm',
  'listGeometryAlarmCities',
  'getNeighborhood',
  'locateArea',
  // forecast alarms (4.7, 4.11, 4.12)
  'registerForecastAlarm',
  'updateForecastAlarm',
  'unregisterForecastAlarm',
  'getForecastAlarmById',
  'getForecastAlarmPage',
  'getForecastAlarmsByRecipientId',
  'backtestForecastAlarm',
  'listForecastThresholds',
  'runForecastSlot',
  'getDistrict',
  'listCountryCities',
  // point alarms (4.8)
  'registerPointAlarm',
  'updatePointAlarm',
  'unregisterPointAlarm',
  'getPointAlarmById',
  'getPointAlarmPage',
  'getPointAlarmsByRecipientId',
  'backtestPointAlarm',
  ...STORED_WEBHOOK_OPERATIONS,
  // webhook delivery health, log and replay
  'getWebhookHealth',
  'recoverWebhookDeliveries',
  'getWebhookRecovery',
  'getDeliveryPage',
  'getDelivery',
  'redeliverDelivery',
  // accounts (4.13 - 4.15)
  'createAccount',
  'updateAccount',
  'requestPhoneActivation',
  'activatePhoneNumber',
  'getAccount',
  // subscriptions (ADMIN writes, the owner reads)
  'updateSubscription',
  'getSubscription',
  // users (4.16 - 4.19)
  'getUserPage',
  'getCurrentUser',
  'getUser',
  'resetPassword',
  'requestPasswordReset',
  'createUser',
  'changeUserRoleAndStatus',
  // API keys of machine clients (role API_USER)
  'createApiKey',
  'listApiKeys',
  'revokeApiKey',
  // authentication
  'login',
  'refreshToken',
  'logout',
  // system
  'getHealth',
  'getLiveness',
  'getReadiness',
  'getOpenApiDocument',
  'getAsyncApiDocument',
] as const;

export type OperationId = (typeof OPERATION_IDS)[number];
