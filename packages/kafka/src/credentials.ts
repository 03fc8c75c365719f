import { readFileSync } from 'node:fs';
import { KAFKA_ADMIN_PRINCIPAL, KAFKA_PRINCIPALS, type KafkaPrincipal } from './topic-access.js';

/** A SCRAM-SHA-512 login on the broker: the principal is `User:<username>`. */
export interface KafkaCredentials {
  username: string;
  password: string;
}

/**
 * TLS to the brokers (production). `true` trusts the system's CAs; `ca` adds PEM certificates
 * (a private CA, as Strimzi's cluster CA).
 */
export type KafkaTls = false | true | { ca: string[] };

/**
 * How a client reaches and logs in to the cluster. `credentials: null` is an anonymous client: the
 * broker refuses it; only the test proving that refusal and probes of a closed port use it.
 */
export interface KafkaConnection {
  brokers: readonly string[];
  credentials: KafkaCredentials | null;
  tls?: KafkaTls;
}

/** The passwords of every principal of a cluster, as the local stack writes them (`credentials.json`). */
export type KafkaCredentialSet = Readonly<Record<KafkaPrincipal | typeof KAFKA_ADMIN_PRINCIPAL, string>>;

/** The login of one principal from a set. */
export function credentialsOf(set: KafkaCredentialSet, principal: KafkaPrincipal | typeof KAFKA_ADMIN_PRINCIPAL): KafkaCredentials {
  return { username: principal, password: set[principal] };
}

/** Reads and checks a credential set written by the local stack; the error names the file and the missing principal. */
export function readCredentialSet(file: string): KafkaCredentialSet {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Kafka credentials ${file} cannot be read: ${(error as Error).message}`, { cause: error });
  }
  const passwords = (parsed as { passwords?: unknown }).passwords;
  if (typeof passwords !== 'object' || passwords === null) throw new Error(`Kafka credentials ${file} hold no "passwords" object`);
  const set: Record<string, string> = {};
  for (const principal of [KAFKA_ADMIN_PRINCIPAL, ...KAFKA_PRINCIPALS]) {
    const password = (passwords as Record<string, unknown>)[principal];
    if (typeof password !== 'string' || password.length === 0) throw new Error(`Kafka credentials ${file} have no password for "${principal}"`);
    set[principal] = password;
  }
  return set as KafkaCredentialSet;
}
