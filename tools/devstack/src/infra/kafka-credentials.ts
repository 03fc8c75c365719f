import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { KAFKA_ADMIN_PRINCIPAL, KAFKA_PRINCIPALS, readCredentialSet, type KafkaCredentialSet } from '@stormhook/kafka';
import { stackDir } from '../paths.js';

/** Everyone who gets a SCRAM login on the embedded broker: its super user, then the access table's principals. */
export const BROKER_PRINCIPALS = [KAFKA_ADMIN_PRINCIPAL, ...KAFKA_PRINCIPALS] as const;

/** Hex: no character that needs quoting in server.properties, a JAAS line or StorageTool's --add-scram. */
function newPassword(): string {
  return randomBytes(24).toString('hex');
}

export function generateCredentialSet(): KafkaCredentialSet {
  return Object.fromEntries(BROKER_PRINCIPALS.map((principal) => [principal, newPassword()])) as unknown as KafkaCredentialSet;
}

/** Written owner-only: the passwords of every principal of one broker. */
export function writeCredentialSet(file: string, set: KafkaCredentialSet): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ passwords: set }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}

/** The set in `file` when it exists and names every principal of today's table; else undefined (a new table needs new logins). */
export function readCurrentSet(file: string): KafkaCredentialSet | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return readCredentialSet(file);
  } catch {
    return undefined;
  }
}

/**
 * Where a running embedded broker's credentials are published, by port: a second command (`npm test`
 * beside `npm start`, `npm run feed:sim`) that finds the broker running reads them here.
 */
export function runningBrokerCredentialsFile(port: number): string {
  return join(stackDir, 'run', `kafka-${port}-credentials.json`);
}

/** What an outside data publisher needs to write feed.* on the local broker (named in the start banner). */
export function writePublisherFile(file: string, brokers: readonly string[], set: KafkaCredentialSet): void {
  mkdirSync(dirname(file), { recursive: true });
  const body = { brokers, mechanism: 'SCRAM-SHA-512', securityProtocol: 'SASL_PLAINTEXT', username: 'publisher', password: set.publisher };
  writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
}
