import { list, oneOf, port, str, url } from '@stormhook/config';
import { INTERNAL_KEY_MIN_LENGTH } from '@stormhook/grpc';

/**
 * Environment every service reads. A service's own `loadConfig` spreads these into its spec
 * (`defineEnv({ ...platformEnv, ...grpcEnv, OWN_VAR: ... })`) so one validation covers all.
 */
export const platformEnv = {
  KAFKA_BROKERS: list({ default: ['127.0.0.1:9092'], description: 'Kafka bootstrap brokers' }),
  MONGO_URL: url({ default: 'mongodb://127.0.0.1:27017/', protocols: ['mongodb', 'mongodb+srv'], secret: true }),
  LOG_LEVEL: oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'] as const, { default: 'info' }),
  OTEL_EXPORTER_OTLP_ENDPOINT: url({ optional: true, protocols: ['http', 'https'] }),
  /** Prefix of every topic name, for a second stack sharing one cluster; empty in production. */
  STORMHOOK_TOPIC_PREFIX: str({ optional: true }),
  /** Prefix of every database name, for the same reason. */
  STORMHOOK_DB_PREFIX: str({ optional: true }),
  /** Prometheus metrics on http://<METRICS_HOST>:<METRICS_PORT>/metrics; unset: not served. */
  METRICS_PORT: port({ optional: true, description: 'port of the Prometheus /metrics endpoint; unset: no endpoint' }),
  METRICS_HOST: str({ default: '0.0.0.0', description: 'address the metrics endpoint binds to' }),
};

/**
 * The key every service signs and verifies its own internal gRPC calls with (HMAC-SHA256; tokens
 * that carry a customer need the gateway's key below). Required, no default: the local stack and the
 * test runner generate one per run; the chart takes it from a Secret.
 */
export const internalTokenEnv = {
  INTERNAL_TOKEN_KEY: str({
    minLength: INTERNAL_KEY_MIN_LENGTH,
    secret: true,
    description: "shared key of the services' own internal gRPC tokens (e.g. 32 random bytes in base64)",
  }),
};

/**
 * The gateway's private key for internal tokens that carry a customer (the gateway only). Parsed and
 * checked at start by `principalSigningKeyOf`.
 */
export const principalSigningEnv = {
  INTERNAL_PRINCIPAL_SIGNING_KEY: str({
    secret: true,
    description: "the gateway's Ed25519 private key (PKCS#8 PEM) that signs internal tokens carrying a customer",
  }),
};

/** The matching public key, held by every gRPC service; parsed and checked by `principalPublicKeyOf`. */
export const principalVerifyEnv = {
  INTERNAL_PRINCIPAL_PUBLIC_KEY: str({
    description: "the gateway's Ed25519 public key (SPKI PEM) that internal tokens carrying a customer are checked with",
  }),
};

/** The gRPC listener; each service has its own default port (see the README's table). */
export function grpcEnv(defaultPort: number) {
  return {
    // Loopback unless told otherwise: a laptop's services are not for the network; the chart sets 0.0.0.0.
    GRPC_HOST: str({ default: '127.0.0.1', description: 'address the gRPC server binds to' }),
    GRPC_PORT: port({ default: defaultPort }),
    ...internalTokenEnv,
    ...principalVerifyEnv,
  };
}
