// The access rules of Stormhook in one place: identity's CheckAccess and the gateway's in-memory
// check decide with the same code, so they can never disagree.
export { ROLES, isRole, atLeast, compareRoles, type Role } from './roles.js';
export { USER_STATUSES, isUserStatus, canSignIn, type UserStatus } from './user-status.js';
export { ACCOUNT_TYPES, type AccountType } from './account-type.js';
export type { Principal } from './principal.js';
export { METERED_SERVICES, isMeteredService, parseServiceName, type MeteredService } from './metered-services.js';
export { OPERATION_RULES, operationRule, type OperationRule } from './operations.js';
export {
  COUNTRIES,
  COUNTRY_CODES,
  isCountryCode,
  foldRegion,
  withinBoundary,
  withinAny,
  describeBoundaries,
  type CountryCode,
  type GeoBoundary,
  type ResolvedLocation,
} from './geography.js';
export {
  SUBSCRIPTION_PLANS,
  LIMIT_RECURRENCES,
  isSubscriptionPlan,
  isSubscriptionActive,
  type SubscriptionPlan,
  type LimitRecurrence,
  type ServiceLimit,
  type ServiceLimits,
  type Subscription,
} from './subscription.js';
export { NEVER, quotaWindow, type QuotaWindow } from './quota-window.js';
export {
  decideAccess,
  DENIAL_REASONS,
  SESSION_ENDED,
  type AccessAccount,
  type AccessDecision,
  type AccessDenial,
  type DecisionInputs,
  type GeoPoint,
  type QueriedArea,
} from './decide-access.js';
export { decideEntitlement, SUSPENSION_REASONS, type Entitlement, type EntitlementQuestion, type SuspensionReason } from './entitlement.js';
export { currentPrincipal, type AccessSnapshot, type ClaimedCaller } from './snapshot.js';
export { tokensValidFrom, issuedAtSeconds, issuedBeforeValidFrom } from './token-validity.js';
export {
  snapshotMessage,
  snapshotFromMessage,
  decisionResponse,
  boundaryMessages,
  boundariesFromMessages,
  resolvedLocation,
  cityLocation,
  SnapshotFormatError,
} from './wire.js';
export { addressLimitKey } from './address-key.js';
export { AreaIndex, type AllowedAreaInput, type Resolved, type SubscriptionArea } from './subscription-areas.js';
export { fetchAreas, loadAreasWithRetry, ringOf, toRings, type GeoAreasClient } from './subscription-areas-load.js';
