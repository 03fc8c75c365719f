import { DEFAULT_PLAN_TABLE, type PlanTable } from '../domain/plan-defaults.js';
import type { SubscriptionPlan } from '../domain/subscription.js';
import { systemClock, type Clock } from '../ports/clock.js';
import type { GeoResolver } from '../ports/geo-resolver.js';
import type { AccessChangePublisher } from '../ports/access-changes.js';
import type { MessagePublisher } from '../ports/message-publisher.js';
import type { IdentityRepositories } from '../ports/repositories.js';
import { JwtSigner, JwtVerifier, type SigningKey, type TokenAudience, type VerificationKey } from '../security/jwt.js';
import { PasswordHasher } from '../security/password-hasher.js';
import { ApiKeys, type ApiKeyOptions } from './api-keys.js';
import { Accounts } from './accounts/manage-accounts.js';
import { PhoneActivation, type PhoneActivationOptions } from './accounts/phone-activation.js';
import { Subscriptions } from './accounts/subscriptions.js';
import { AttemptLimiter } from './auth/attempt-limiter.js';
import { Login, type LoginPolicy } from './auth/login.js';
import { SessionTokens, type SessionTokenOptions } from './auth/session-tokens.js';
import { AccessSnapshots, CheckAccess } from './check-access.js';
import { Housekeeping } from './housekeeping.js';
import { LinkPolicy } from './links.js';
import { AdminBootstrap } from './users/admin-bootstrap.js';
import { ChangeRoleAndStatus } from './users/change-role-status.js';
import { CreateUser, type CreateUserOptions } from './users/create-user.js';
import { PasswordReset, type PasswordResetOptions } from './users/password-reset.js';
import { UserQueries } from './users/user-queries.js';

export interface IdentityDependencies {
  repositories: IdentityRepositories;
  /** Signs access tokens (Ed25519). */
  signingKey: SigningKey;
  /** Keys accepted when verifying; default the signing key alone. Add the previous key during a rotation. */
  verificationKeys?: readonly VerificationKey[];
  /** `iss` and `aud` of access tokens, e.g. {issuer: "stormhook-identity", audience: "stormhook-api"}. */
  tokenAudience: TokenAudience;
  messages: MessagePublisher;
  /** Tells the gateways that a user's access state changed (identity.user-changed.v1). */
  accessChanges: AccessChangePublisher;
  geo: GeoResolver;
  /** Origins that reset, login, invitation and activation links may point to. */
  allowedLinkOrigins: readonly string[];
  clock?: Clock;
  /** Default: scrypt at production cost. Tests pass a cheaper one. */
  hasher?: PasswordHasher;
  planTable?: PlanTable;
  selfServicePlans?: readonly SubscriptionPlan[];
  sessions?: SessionTokenOptions;
  login?: LoginPolicy;
  passwordReset?: PasswordResetOptions;
  createUser?: CreateUserOptions;
  phoneActivation?: PhoneActivationOptions;
  apiKeys?: ApiKeyOptions;
}

/** Every use case of identity, built once at start and shared by the transport handlers. */
export interface IdentityUseCases {
  login: Login;
  sessions: SessionTokens;
  apiKeys: ApiKeys;
  adminBootstrap: AdminBootstrap;
  createUser: CreateUser;
  changeRoleAndStatus: ChangeRoleAndStatus;
  userQueries: UserQueries;
  passwordReset: PasswordReset;
  accounts: Accounts;
  phoneActivation: PhoneActivation;
  subscriptions: Subscriptions;
  checkAccess: CheckAccess;
  accessSnapshots: AccessSnapshots;
  housekeeping: Housekeeping;
}

/** Builds the object graph by hand (style.md: no DI framework). */
export function createIdentityUseCases(deps: IdentityDependencies): IdentityUseCases {
  const repos = deps.repositories;
  const clock = deps.clock ?? systemClock;
  const hasher = deps.hasher ?? new PasswordHasher();
  const planTable = deps.planTable ?? DEFAULT_PLAN_TABLE;
  const limiter = new AttemptLimiter(repos.attempts);
  const links = new LinkPolicy(deps.allowedLinkOrigins);
  const signer = new JwtSigner(deps.signingKey, deps.tokenAudience);
  const verifier = new JwtVerifier(deps.verificationKeys ?? [deps.signingKey], deps.tokenAudience);
  const sessions = new SessionTokens(
    { users: repos.users, accounts: repos.accounts, refreshTokens: repos.refreshTokens, signer, verifier, accessChanges: deps.accessChanges, clock },
    deps.sessions,
  );
  const base = { users: repos.users, accounts: repos.accounts, clock };
  const accessChanges = deps.accessChanges;
  return {
    login: new Login({ users: repos.users, credentials: repos.credentials, hasher, limiter, tokens: sessions, clock }, deps.login),
    sessions,
    apiKeys: new ApiKeys({ ...base, apiKeys: repos.apiKeys, accessChanges }, deps.apiKeys),
    adminBootstrap: new AdminBootstrap({ users: repos.users, credentials: repos.credentials, hasher, clock }),
    createUser: new CreateUser(
      { users: repos.users, credentials: repos.credentials, oneTimeTokens: repos.oneTimeTokens, hasher, messages: deps.messages, links, clock },
      deps.createUser,
    ),
    changeRoleAndStatus: new ChangeRoleAndStatus({ ...base, refreshTokens: repos.refreshTokens, accessChanges }),
    userQueries: new UserQueries(base),
    passwordReset: new PasswordReset(
      {
        users: repos.users,
        credentials: repos.credentials,
        oneTimeTokens: repos.oneTimeTokens,
        refreshTokens: repos.refreshTokens,
        hasher,
        messages: deps.messages,
        links,
        limiter,
        accessChanges,
        clock,
      },
      deps.passwordReset,
    ),
    accounts: new Accounts({ ...base, accessChanges }, { planTable, ...(deps.selfServicePlans ? { selfServicePlans: deps.selfServicePlans } : {}) }),
    phoneActivation: new PhoneActivation({ ...base, messages: deps.messages, links, limiter }, deps.phoneActivation),
    subscriptions: new Subscriptions({ accounts: repos.accounts, accessChanges, clock }, planTable),
    checkAccess: new CheckAccess({ accounts: repos.accounts, geo: deps.geo, clock }),
    accessSnapshots: new AccessSnapshots({ users: repos.users, accounts: repos.accounts }),
    housekeeping: new Housekeeping({ attempts: repos.attempts, refreshTokens: repos.refreshTokens, oneTimeTokens: repos.oneTimeTokens, clock }),
  };
}
