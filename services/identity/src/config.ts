import { ConfigError, defineEnv, int, list, str, type ConfigOf, type EnvSource } from '@stormhook/config';
import { grpcEnv, internalSigningEnv, missingWithoutDevFallbacks, platformEnv } from '@stormhook/service-kit';

/** Everything the identity service reads from its environment, validated once at start. */
const spec = {
  ...platformEnv,
  ...grpcEnv(50051),
  ...internalSigningEnv('identity'),
  /** The first administrator: created at start when both are set and the user does not exist yet. */
  STORMHOOK_ADMIN_EMAIL: str({ optional: true, format: 'email', description: 'username (e-mail) of the first ADMIN, created at start' }),
  STORMHOOK_ADMIN_PASSWORD: str({ optional: true, secret: true, minLength: 8, maxLength: 256, description: 'initial password of the first ADMIN' }),
  /**
   * PKCS#8 PEM of the Ed25519 key that signs access tokens (`openssl genpkey -algorithm ed25519`).
   * Required unless STORMHOOK_DEV_FALLBACKS is set; then, when unset, a development key is generated
   * once and kept in identity's database, with a warning.
   */
  IDENTITY_JWT_PRIVATE_KEY: str({ optional: true, secret: true, pattern: '-----BEGIN PRIVATE KEY-----', description: 'Ed25519 signing key, PKCS#8 PEM' }),
  /** SPKI PEM of the key signing before a rotation: its tokens keep verifying until they expire. */
  IDENTITY_JWT_PREVIOUS_PUBLIC_KEY: str({ optional: true, pattern: '-----BEGIN PUBLIC KEY-----', description: 'previous Ed25519 public key, SPKI PEM' }),
  IDENTITY_TOKEN_ISSUER: str({ default: 'stormhook-identity', description: 'iss claim of access tokens' }),
  IDENTITY_TOKEN_AUDIENCE: str({ default: 'stormhook-api', description: 'aud claim of access tokens' }),
  IDENTITY_ACCESS_TOKEN_TTL_S: int({ default: 900, min: 60, max: 3600, description: 'access token lifetime, seconds' }),
  IDENTITY_REFRESH_TOKEN_TTL_S: int({
    default: 30 * 24 * 3600,
    min: 3600,
    max: 365 * 24 * 3600,
    description: 'refresh token lifetime since its last use, seconds',
  }),
  /** Argon2id memory cost. 19456 (19 MiB, t=2, p=1) is OWASP's first Argon2id option; lower values are for tests only. */
  IDENTITY_PASSWORD_HASH_MEMORY_KIB: int({ default: 19_456, min: 1_024, max: 262_144, description: 'Argon2id memory per hash, KiB (t=2, p=1)' }),
  /**
   * Memory that password hashes in flight may hold together; more logins wait their turn. 64 MiB runs
   * three Argon2id hashes at once (more would not finish sooner on two cores) and a legacy scrypt
   * verify (128 MiB) alone.
   */
  IDENTITY_PASSWORD_HASH_BUDGET_MIB: int({ default: 64, min: 8, max: 4_096, description: 'memory of password hashes in flight together, MiB' }),
  /** Origins that links in e-mails and SMS may point to (reset, login, invitation, activation pages). */
  STORMHOOK_ALLOWED_LINK_ORIGINS: list({
    optional: true,
    itemPattern: '^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?/?$',
    description: 'comma-separated origins, e.g. https://app.example.com; unset: no link is accepted',
  }),
  /** Operator overrides of the plan defaults, JSON: {"TRIAL": {"duration": {"days": 30}, ...}}. */
  IDENTITY_PLAN_DEFAULTS: str({ optional: true, description: 'JSON map of plan to {duration, geographicBoundaries, limits}' }),
  /**
   * The notifier's X25519 public key (SPKI PEM): one-time links and codes in message requests are
   * sealed to it, so they never cross Kafka readable. Required; local runs generate the pair per run.
   */
  NOTIFIER_MESSAGE_PUBLIC_KEY: str({
    pattern: '-----BEGIN PUBLIC KEY-----',
    description: "the notifier's X25519 public key (SPKI PEM) message secrets are sealed to",
  }),
  GEO_GRPC_ADDRESS: str({ default: '127.0.0.1:50052', description: 'geo service, resolves points for geographic checks' }),
  GRPC_DEADLINE_MS: int({ default: 5_000, min: 100, max: 60_000, description: 'deadline of calls to other services' }),
  IDENTITY_HOUSEKEEPING_INTERVAL_MS: int({ default: 3_600_000, min: 1_000, max: 86_400_000, description: 'how often expired tokens and counters are purged' }),
};
export type Config = ConfigOf<typeof spec>;

const load = defineEnv(spec);

/** Loads and validates the config; throws ConfigError naming the bad variables (the signing key without the development switch too). */
export function loadConfig(env: EnvSource = process.env): Config {
  const config = load(env);
  const issues = missingWithoutDevFallbacks(config.STORMHOOK_DEV_FALLBACKS, { IDENTITY_JWT_PRIVATE_KEY: config.IDENTITY_JWT_PRIVATE_KEY });
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}
