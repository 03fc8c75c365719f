import type { KafkaCredentialSet } from '@stormhook/kafka';
import { GRPC_EDGES, GRPC_SERVICES, grpcAddressVariable, internalKeysOf, type GrpcServiceName, type InternalKeyEnv } from '@stormhook/grpc';

/**
 * The seven services as the stack runs them: where each listens and what it is told about the
 * others. Ports follow the README; gRPC services take consecutive ports from the base.
 */
export const grpcServices = GRPC_SERVICES;
export { grpcAddressVariable, type GrpcServiceName };
export const allServices = ['gateway', ...grpcServices] as const;
export type ServiceName = (typeof allServices)[number];

export function grpcPort(base: number, service: GrpcServiceName): number {
  return base + grpcServices.indexOf(service);
}

export interface ServiceEnvInput {
  host: string;
  gatewayPort: number;
  grpcBasePort: number;
  kafkaBrokers: string[];
  /** The broker's logins: each service gets its own alone. */
  kafkaCredentials: KafkaCredentialSet;
  /** Each service's own database URL: its own login. */
  mongoUrls: Readonly<Record<ServiceName, string>>;
  /** The internal-token keys of the run (localInternalKeys): each service gets its own private key and the public keys. */
  internalKeys: InternalKeyEnv;
}

export function serviceEnv(service: ServiceName, input: ServiceEnvInput): Record<string, string> {
  const env: Record<string, string> = {
    KAFKA_BROKERS: input.kafkaBrokers.join(','),
    // Each service is its own principal (the name in the access table) and knows only its own password.
    KAFKA_USERNAME: service,
    KAFKA_PASSWORD: input.kafkaCredentials[service],
    // Each service connects as its own database user, as in a cluster (the chart's mongo-users Job).
    MONGO_URL: input.mongoUrls[service],
    ...internalKeysOf(input.internalKeys, service),
  };
  // A service learns only its callees' addresses, from the table the chart renders its addresses and
  // NetworkPolicies from: a client added without its edge fails here as it would in a cluster.
  for (const callee of GRPC_EDGES[service]) {
    env[grpcAddressVariable(callee)] = `${input.host}:${grpcPort(input.grpcBasePort, callee)}`;
  }
  if (service === 'gateway') {
    env['HTTP_HOST'] = input.host;
    env['HTTP_PORT'] = String(input.gatewayPort);
  } else {
    env['GRPC_HOST'] = input.host;
    env['GRPC_PORT'] = String(grpcPort(input.grpcBasePort, service));
  }
  return env;
}
