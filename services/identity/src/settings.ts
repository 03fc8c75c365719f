import type { KeyObject } from 'node:crypto';
import { ConfigError } from '@stormhook/config';
import { messageSealingKey } from '@stormhook/kafka';
import { planTableWithOverrides, type PlanTable } from './domain/plan-defaults.js';
import { signingKeyFromPem, verificationKeyFromPem, type SigningKey, type VerificationKey } from './security/jwt.js';
import type { Config } from './config.js';

/** What the config holds in text form (PEM keys, JSON plan table), parsed once at start. */
export interface IdentitySettings {
  /** Undefined: none configured (a development key is used). */
  signingKey?: SigningKey;
  previousKey?: VerificationKey;
  planTable: PlanTable;
  allowedLinkOrigins: string[];
  admin?: { email: string; password: string };
  /** The notifier's public message key: one-time links and codes are sealed to it before they go on Kafka. */
  notifierMessageKey: KeyObject;
}

/** `.env` files and some secret stores carry PEM line breaks as the two characters \n. */
const pem = (text: string): string => text.replace(/\\n/g, '\n').trim();

/** Parses the text-form settings; every failure names its variable (and never echoes a key). */
export function parseSettings(config: Config): IdentitySettings {
  const issues: Array<{ variable: string; problem: string }> = [];
  let signingKey: SigningKey | undefined;
  let previousKey: VerificationKey | undefined;
  let planTable: PlanTable | undefined;
  let notifierMessageKey: KeyObject | undefined;
  try {
    notifierMessageKey = messageSealingKey(config.NOTIFIER_MESSAGE_PUBLIC_KEY);
  } catch (error) {
    issues.push({ variable: 'NOTIFIER_MESSAGE_PUBLIC_KEY', problem: `must be an X25519 public key in SPKI PEM (${(error as Error).message.split('\n')[0]})` });
  }
  if (config.IDENTITY_JWT_PRIVATE_KEY) {
    try {
      signingKey = signingKeyFromPem(pem(config.IDENTITY_JWT_PRIVATE_KEY));
    } catch (error) {
      issues.push({
        variable: 'IDENTITY_JWT_PRIVATE_KEY',
        problem: `must be an Ed25519 private key in PKCS#8 PEM (${(error as Error).message.split('\n')[0]})`,
      });
    }
  }
  if (config.IDENTITY_JWT_PREVIOUS_PUBLIC_KEY) {
    try {
      previousKey = verificationKeyFromPem(pem(config.IDENTITY_JWT_PREVIOUS_PUBLIC_KEY));
    } catch (error) {
      issues.push({
        variable: 'IDENTITY_JWT_PREVIOUS_PUBLIC_KEY',
        problem: `must be an Ed25519 public key in SPKI PEM (${(error as Error).message.split('\n')[0]})`,
      });
    }
  }
  let overrides: unknown;
  try {
    overrides = config.IDENTITY_PLAN_DEFAULTS ? JSON.parse(config.IDENTITY_PLAN_DEFAULTS) : undefined;
  } catch {
    issues.push({ variable: 'IDENTITY_PLAN_DEFAULTS', problem: 'must be JSON' });
  }
  const table = planTableWithOverrides(overrides, 'IDENTITY_PLAN_DEFAULTS');
  if (table.ok) planTable = table.value;
  else issues.push({ variable: 'IDENTITY_PLAN_DEFAULTS', problem: table.error.message });
  const email = config.STORMHOOK_ADMIN_EMAIL;
  const password = config.STORMHOOK_ADMIN_PASSWORD;
  if ((email === undefined) !== (password === undefined)) {
    issues.push({
      variable: email === undefined ? 'STORMHOOK_ADMIN_EMAIL' : 'STORMHOOK_ADMIN_PASSWORD',
      problem: 'is required when the other admin variable is set',
    });
  }
  if (issues.length > 0 || !planTable || !notifierMessageKey) throw new ConfigError(issues);
  return {
    ...(signingKey ? { signingKey } : {}),
    ...(previousKey ? { previousKey } : {}),
    planTable,
    notifierMessageKey,
    allowedLinkOrigins: config.STORMHOOK_ALLOWED_LINK_ORIGINS ?? [],
    ...(email !== undefined && password !== undefined ? { admin: { email, password } } : {}),
  };
}
