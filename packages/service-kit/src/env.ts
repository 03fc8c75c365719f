import { bool, list, oneOf, port, str, url, type VarSpec } from '@stormhook/config';
import { signingKeyVariable, type GrpcCaller, type SigningKeyVariable } from '@stormhook/grpc';
import { devFallbacksEnv } from './dev-fallbacks.js';

/**
 * Environment every service reads. A service's own `loadConfig` spreads these into its spec
 * (`defineEnv({ ...platformEnv, ...grpcEnv, OWN_VAR: ... })`) so one validation covers all.
 */
export const platformEnv = {
  KAFKA_BROKERS: list({ default: ['127.0.0.1:9092'], description: 'Kafka bootstrap brokers' }),
  ...kafkaLoginEnv(),
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
  ...devFallbacksEnv,
};

/**
 * A calling service's own Ed25519 private key (PKCS#8 PEM), under a variable named for the service
 * (`GATEWAY_INTERNAL_SIGNING_KEY`, ...): it signs every internal token the service sends. Required,
 * no default: the local stack and the test runner generate one per run; the chart takes it from a
 * Secret. Parsed and checked at start by `signingKeyOf`.
 */
export function internalSigningEnv<S extends GrpcCaller>(service: S): Record<SigningKeyVariable<S>, VarSpec<string>> {
  const spec = str({ secret: true, description: `${service}'s own Ed25519 private key (PKCS#8 PEM) that signs its internal gRPC tokens` });
  return { [signingKeyVariable(service)]: spec } as Record<SigningKeyVariable<S>, VarSpec<string>>;
}

/**
 * The public keys of the calling services, held by every gRPC service: a JSON object of service name
 * -> SPKI PEM. A service uses only its callers' entries; parsed and checked at start by `internalVerifierOf`.
 */
export const internalPublicKeysEnv = {
  INTERNAL_PUBLIC_KEYS: str({
    description: 'JSON object: calling service name -> Ed25519 public key (SPKI PEM) its internal gRPC tokens are checked with',
  }),
};

/** The gRPC listener; each service has its own default port (see the README's table). */
export function grpcEnv(defaultPort: number) {
  return {
    // Loopback unless told otherwise: a laptop's services are not for the network; the chart sets 0.0.0.0.
    GRPC_HOST: str({ default: '127.0.0.1', description: 'address the gRPC server binds to' }),
    GRPC_PORT: port({ default: defaultPort }),
    ...internalPublicKeysEnv,
  };
}

/**
 * The process's own Kafka login (SCRAM-SHA-512): required, no default, so a service never starts
 * anonymous. Each service has its own principal; the local stack writes them per broker, the chart
 * mounts each service's own Secret. TLS is for production clusters.
 */
export function kafkaLoginEnv() {
  return {
    KAFKA_USERNAME: str({ description: "this process's Kafka principal (SCRAM-SHA-512 user name)" }),
    KAFKA_PASSWORD: str({ secret: true, description: "this process's Kafka SCRAM-SHA-512 password" }),
    KAFKA_TLS: bool({ default: false, description: 'connect to the brokers over TLS (production)' }),
    KAFKA_TLS_CA_FILE: str({ optional: true, description: 'PEM file of the CA that signed the brokers (implies KAFKA_TLS)' }),
  };
}
