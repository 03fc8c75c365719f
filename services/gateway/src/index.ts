export {
  createApp,
  DEFAULT_BODY_LIMIT_BYTES,
  validatedInput,
  validatedBody,
  validatedParams,
  validatedQuery,
  type AppDeps,
  type Handler,
  type Handlers,
  type HealthPort,
  type HealthReport,
  type ComponentHealth,
  type HealthStatus,
  type RouteSpec,
  type OperationId,
  type ValidatedInput,
  type Validated,
} from './app.js';
export { OPERATION_IDS } from './contract/operation-ids.js';
export { ROUTES } from './routes/table.js';
export { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.js';
export { start, type RunningGateway, type GatewayStartOptions } from './service.js';
export { principalOf, accessOf, setAuthState, type AuthState } from './http/auth-state.js';
export { AccessTokenVerifier, ACCESS_TOKEN_ALG } from './http/auth-jwt.js';
export { QuotaStore, QUOTA_COLLECTION } from './quota/quota-store.js';
export { QuotaMeter, quotaHeaders, type MeteredWindow, type QuotaState } from './quota/quota-meter.js';
export { loadConfig, type Config } from './config.js';
export { stackHealth, type StackHealthOptions } from './health/stack-health.js';
export { areaHandlers, type AreaHandlerDeps, type GeoClient } from './handlers/areas.js';
export {
  toEndpointConfig,
  toPublicWebhook,
  PUBLIC_AUTH_TYPES,
  MASKED_PASSWORD,
  type PublicWebhook,
  type PublicWebhookInput,
  type PublicAuthenticationInput,
  type PublicDeliveryPolicy,
  type StoredWebhookConfig,
  type ToEndpointConfigOptions,
  type WebhookMapping,
} from './handlers/webhook-mapping.js';
export { ownAccountId, targetAccountId, NO_ACCOUNT_MESSAGE, type AccountLookup } from './handlers/webhooks-account.js';
export { webhookHandlers, type WebhookHandlerDeps, type NotifierClient } from './handlers/webhooks.js';
export { deliveryHandlers } from './handlers/deliveries.js';
export { alarmHandlers, type AlarmHandlerDeps, type AlarmMatcherClient } from './handlers/alarms.js';
