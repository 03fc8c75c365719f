export { start, type IdentityStartOptions } from './service.js';
export { loadConfig, type Config } from './config.js';

// Domain and use cases of identity (transport-free; the gRPC handlers translate to and from these).
export { ok, fail, type Result } from './result.js';
export { HTTP_STATUS_OF, type IdentityError, type IdentityErrorKind, type IdentityEntity } from './errors.js';
export { ROLES, isRole, atLeast, compareRoles, type Role } from '@stormhook/access';
export { USER_STATUSES, isUserStatus, canSignIn, type User, type UserStatus } from './domain/user.js';
export { ACCOUNT_TYPES, type Account, type AccountType, type AccountProfile } from './domain/account.js';
export {
  SUBSCRIPTION_PLANS,
  LIMIT_RECURRENCES,
  isSubscriptionActive,
  type Subscription,
  type SubscriptionPlan,
  type ServiceLimit,
  type ServiceLimits,
  type LimitRecurrence,
} from './domain/subscription.js';
export { DEFAULT_PLAN_TABLE, defaultSubscription, planTableWithOverrides, type PlanTable, type PlanDefaults } from './domain/plan-defaults.js';
export { COUNTRIES, type CountryCode, type GeoBoundary, type ResolvedLocation } from '@stormhook/access';
export { METERED_SERVICES, parseServiceName, type MeteredService } from '@stormhook/access';
export { OPERATION_RULES, operationRule, type OperationRule } from '@stormhook/access';
export { parseBracketList } from './domain/bracket-filter.js';
export type { Principal } from '@stormhook/access';
export type { MessageRequest, MessageTemplate } from './domain/message-request.js';

export { systemClock, type Clock } from './ports/clock.js';
export type { MessagePublisher } from './ports/message-publisher.js';
export type { GeoResolver } from './ports/geo-resolver.js';
export type * from './ports/repositories.js';

export { PasswordHasher, PRODUCTION_ARGON2, type Argon2Params } from './security/password-hasher.js';
export { HashMemoryBudget } from './security/hash-memory-budget.js';
export {
  JwtSigner,
  JwtVerifier,
  JWT_ALG,
  generateSigningKey,
  signingKeyFromPem,
  verificationKeyFromPem,
  publicKeyPem,
  keyIdOf,
  type AccessTokenClaims,
  type SigningKey,
  type VerificationKey,
  type TokenAudience,
  type TokenRejection,
} from './security/jwt.js';

export { createIdentityUseCases, type IdentityDependencies, type IdentityUseCases } from './usecases/create-use-cases.js';
export { Login, type LoginInput, type LoginPolicy } from './usecases/auth/login.js';
export { SessionTokens, type TokenPair, type SessionTokenOptions } from './usecases/auth/session-tokens.js';
export { AttemptLimiter, type AttemptPolicy } from './usecases/auth/attempt-limiter.js';
export { ApiKeys, type ApiKeyView, type CreatedApiKey, type CreateApiKeyInput } from './usecases/api-keys.js';
export { AdminBootstrap, type EnsureAdminOutcome } from './usecases/users/admin-bootstrap.js';
export { CreateUser, type CreateUserInput, type CreatedUser, type Invitation } from './usecases/users/create-user.js';
export { ChangeRoleAndStatus, type RoleAndStatusChange } from './usecases/users/change-role-status.js';
export { UserQueries, type UserPage, type UserPageInput } from './usecases/users/user-queries.js';
export {
  PasswordReset,
  PASSWORD_CHANGED_MESSAGE,
  type PasswordResetInput,
  type PasswordResetOutcome,
  type PasswordResetRequestInput,
  type PasswordResetRequestOutcome,
} from './usecases/users/password-reset.js';
export { Accounts, type CreateAccountInput, type UpdateAccountInput } from './usecases/accounts/manage-accounts.js';
export {
  PhoneActivation,
  type PhoneActivationInput,
  type PhoneActivationRequestInput,
  type PhoneActivationRequested,
} from './usecases/accounts/phone-activation.js';
export { Subscriptions, type SubscriptionView } from './usecases/accounts/subscriptions.js';
export { fromIncumbentBody, type IncumbentSubscriptionBody, type SubscriptionUpdateInput } from './usecases/accounts/subscription-input.js';
export { CheckAccess, type AccessDecision, type GeoPoint } from './usecases/check-access.js';
export { Housekeeping } from './usecases/housekeeping.js';
export { LinkPolicy } from './usecases/links.js';
export type { UserView, AccountView } from './usecases/views.js';

export { quotaWindow, NEVER, type QuotaWindow } from '@stormhook/access';
export { parseSettings, type IdentitySettings } from './settings.js';
export { identityHandlers } from './transport/grpc-handlers.js';
export { toGrpcError, IDENTITY_REASONS } from './transport/errors.js';
export { KafkaMessagePublisher, messageRequested } from './adapters/kafka-message-publisher.js';
export { GrpcGeoResolver } from './adapters/grpc-geo-resolver.js';
export { loadOrCreateDevSigningKey } from './adapters/dev-signing-key.js';
export { createMongoRepositories } from './persistence/create-repositories.js';
export { ensureIdentityIndexes, COLLECTIONS } from './persistence/collections.js';
