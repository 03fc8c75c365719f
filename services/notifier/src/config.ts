import { ConfigError, defineEnv, int, list, str, url, type ConfigOf, type EnvSource } from '@stormhook/config';
import { grpcEnv, missingWithoutDevFallbacks, platformEnv } from '@stormhook/service-kit';
import { DEFAULT_STATS_WRITES } from './delivery/webhook-stats-recorder.js';
import { DEFAULT_POLICY_BOUNDS } from './domain/delivery-policy.js';
import { messageEnv } from './messaging/message-env.js';
import { retentionEnv } from './retention/retention-env.js';
import { messageOpeningKey } from '@stormhook/kafka';
import { parseKeyring } from './security/credential-cipher.js';
import { parseCidr } from './security/ip.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Everything the notifier reads from its environment, validated once at start. The credential key
 * has a development fallback only behind STORMHOOK_DEV_FALLBACKS; the README's table says what else
 * production must set (SMTP_URL, the SMS gateway).
 */
const spec = {
  ...platformEnv,
  ...grpcEnv(50056),
  /**
   * AES-256-GCM key(s) for webhook passwords, API keys, HMAC keys and signing secrets at rest: the
   * base64 of 32 random bytes (`openssl rand -base64 32`), or a keyring `kid:base64[,kid:base64...]`
   * whose first entry encrypts and all decrypt (rotation). Required unless STORMHOOK_DEV_FALLBACKS is
   * set; then, when unset, a development key generated once and kept in the notifier's database,
   * with a warning at every start.
   */
  CREDENTIAL_ENCRYPTION_KEY: str({ optional: true, secret: true, description: 'base64 32-byte key, or kid:base64[,kid:base64...]' }),
  /**
   * The notifier's own X25519 private key (PKCS#8 PEM): it opens the one-time links and codes that
   * identity seals to its public key in message requests, so they never cross Kafka readable.
   * Required, no default: local runs generate the pair per run; the chart takes it from a Secret.
   */
  NOTIFIER_MESSAGE_KEY: str({
    secret: true,
    pattern: '-----BEGIN PRIVATE KEY-----',
    description: 'X25519 private key (PKCS#8 PEM) that opens sealed message values',
  }),
  /** CIDRs the SSRF filter lets callbacks reach although they are private/loopback: tests and private deployments only. */
  NOTIFIER_SSRF_ALLOW_CIDRS: list({ optional: true, description: 'comma-separated CIDRs or addresses exempt from the SSRF filter; empty by default' }),
  /** E-mail provider: smtp:// or smtps:// with credentials. Unset: e-mails go to the development outbox. */
  SMTP_URL: url({ optional: true, protocols: ['smtp', 'smtps'], secret: true, description: 'SMTP server, e.g. smtps://user:pass@mail.example.com:465' }),
  SMTP_FROM: str({ default: 'Stormhook <no-reply@stormhook.invalid>', description: 'From header of e-mails' }),
  /** SMS provider: the HTTP gateway's send URL (request shape in the README). Unset: SMS go to the development outbox. */
  SMS_GATEWAY_URL: url({ optional: true, protocols: ['http', 'https'], description: 'HTTP SMS gateway send URL' }),
  SMS_GATEWAY_TOKEN: str({ optional: true, secret: true, description: 'bearer token of the SMS gateway' }),
  SMS_SENDER: str({ default: 'Stormhook', maxLength: 20, description: 'sender name or number shown on SMS' }),
  /** Where the development adapter writes messages; default `<repo root>/.stack/data/notifier-outbox`. */
  NOTIFIER_DEV_OUTBOX_DIR: str({ optional: true, description: 'directory of the development message outbox (messages.jsonl)' }),
  ...messageEnv,
  ...retentionEnv,
  NOTIFIER_CONSUMER_GROUP: str({
    default: 'stormhook-notifier',
    pattern: '^[A-Za-z0-9._-]{1,200}$',
    description: 'consumer group of alarm.triggered.v1 and notification.message-requested.v1; the topic prefix, when set, is put in front',
  }),
  NOTIFIER_PARTITIONS_CONCURRENTLY: int({ default: 6, min: 1, max: 64, description: 'partitions handled in parallel per consumer' }),
  /**
   * AlarmTriggered records of one partition accepted at once (records sharing a key keep their order).
   * Acceptance is one batched insert, so many records in flight are what fill a batch.
   */
  NOTIFIER_RECORDS_IN_FLIGHT: int({ default: 256, min: 1, max: 10_000, description: 'alarm.triggered.v1 records of one partition accepted at once' }),
  NOTIFIER_BATCH_MAX_ITEMS: int({
    default: 500,
    min: 1,
    max: 5_000,
    description: 'documents per batched database write (acceptance, attempt log, queue removals)',
  }),
  NOTIFIER_BATCH_MAX_DELAY_MS: int({ default: 5, min: 0, max: 1_000, description: 'how long the first write of a batch waits for others, in milliseconds' }),
  NOTIFIER_INSTANCE_ID: str({ optional: true, pattern: '^[A-Za-z0-9._:-]{1,100}$', description: 'lease owner name of this process; default host-pid-random' }),
  NOTIFIER_CONCURRENCY: int({ default: 512, min: 1, max: 10_000, description: 'webhook attempts in flight or being recorded at once per process' }),
  NOTIFIER_ENDPOINT_CONCURRENCY: int({ default: 32, min: 1, max: 1_000, description: 'webhook attempts in flight at once per endpoint and process' }),
  /** Must exceed the largest attempt timeout, or a slow attempt could be taken over while it runs. */
  NOTIFIER_LEASE_MS: int({
    default: 60_000,
    min: DEFAULT_POLICY_BOUNDS.timeoutMs.max + 1_000,
    max: 3_600_000,
    description: 'how long an attempt holds its delivery before another instance may take it over, in milliseconds',
  }),
  /**
   * Work this instance queues itself (retries, overflow) it knows at once; the periodic read finds the
   * rest (other instances' retries, redeliveries made through another instance). Each read scans the
   * queue on FerretDB, so not too often.
   */
  NOTIFIER_POLL_INTERVAL_MS: int({ default: 1_000, min: 10, max: 60_000, description: 'interval between two reads of the delivery queue, in milliseconds' }),
  /**
   * Endpoint changes made on other instances arrive through the change log, read this often (one `_id`
   * read when nothing changed); each cached endpoint is also read again at the refresh interval, the
   * safety net for a change the log missed (written just before a crash).
   */
  NOTIFIER_ENDPOINT_CHANGE_POLL_MS: int({
    default: 1_000,
    min: 10,
    max: 60_000,
    description: 'interval between two looks at the endpoint change log, in milliseconds',
  }),
  NOTIFIER_ENDPOINT_REFRESH_MS: int({
    default: 300_000,
    min: 100,
    max: DAY_MS,
    description: 'how old a cached webhook endpoint may get before it is read again, in milliseconds',
  }),
  NOTIFIER_AUTO_DISABLE_AFTER_MS: int({
    // Three days (issue 30): long enough for a weekend outage to be fixed, short enough that a dead receiver stops costing retries.
    default: 3 * DAY_MS,
    min: 60_000,
    max: 90 * DAY_MS,
    description: 'an endpoint whose every attempt failed for this long is disabled, in milliseconds',
  }),
  /** 1 for the embedded FerretDB (SQLite has one writer); 8-32 on MongoDB. */
  NOTIFIER_DB_MAX_CONCURRENT_WRITES: int({ default: 1, min: 1, max: 256, description: 'database writes in flight at once' }),
  /**
   * Manual redeliveries (POST /v1/deliveries/{id}/redeliver) one delivery may have; the next answers
   * 429. Each sends a request to a customer-chosen host, so with the gateway's hourly cap per account
   * (GATEWAY_TEST_DELIVERIES_PER_ACCOUNT_PER_HOUR, which counts redeliveries too) it bounds what one
   * account can make Stormhook send.
   */
  NOTIFIER_MAX_MANUAL_REDELIVERIES: int({ default: 5, min: 0, max: 100, description: 'manual redeliveries per delivery; 0 refuses every one' }),
  /**
   * Webhook health statistics: each process keeps its share in memory and writes the accounts that
   * changed this often, at most NOTIFIER_STATS_MAX_ACCOUNTS_PER_FLUSH at a time (one replace each).
   * The health answer sees other processes' attempts this much later, and later still when more
   * accounts changed than one round writes: they take turns, oldest change first.
   */
  NOTIFIER_STATS_FLUSH_INTERVAL_MS: int({
    default: DEFAULT_STATS_WRITES.flushIntervalMs,
    min: 100,
    max: 300_000,
    description: 'interval between writes of the webhook health statistics, in milliseconds',
  }),
  /** Why 50: DEFAULT_STATS_WRITES. */
  NOTIFIER_STATS_MAX_ACCOUNTS_PER_FLUSH: int({
    default: DEFAULT_STATS_WRITES.maxAccountsPerFlush,
    min: 1,
    max: 100_000,
    description: 'accounts whose webhook health statistics one write round stores',
  }),
  /** A recovery (POST /v1/alarms/webhooks/recover) choosing more is refused: narrow its window. */
  NOTIFIER_RECOVER_MAX_CALLBACKS: int({ default: 100_000, min: 1, max: 10_000_000, description: 'callbacks one recovery may send' }),
  /**
   * A recovery's callbacks fall due this many per second, over all instances together: it shares the
   * database's single writer (embedded FerretDB) and the receiver with live traffic. Unpaced (about
   * 180/s), live p99 grew 27-fold (webhook-health-bench); the default keeps it near its figure (README).
   */
  NOTIFIER_RECOVER_RATE_PER_SECOND: int({ default: 50, min: 1, max: 10_000, description: 'callbacks per second a recovery sends' }),
  NOTIFIER_USER_AGENT: str({ default: 'Stormhook-Webhooks/1.0', maxLength: 200, description: 'User-Agent of webhook callbacks' }),
};

export type Config = ConfigOf<typeof spec>;

const load = defineEnv(spec);

/** Loads and validates the config, keyring and CIDRs included; throws ConfigError naming the bad variables. */
export function loadConfig(env: EnvSource = process.env): Config {
  const config = load(env);
  const issues = missingWithoutDevFallbacks(config.STORMHOOK_DEV_FALLBACKS, { CREDENTIAL_ENCRYPTION_KEY: config.CREDENTIAL_ENCRYPTION_KEY });
  if (config.CREDENTIAL_ENCRYPTION_KEY) {
    try {
      parseKeyring(config.CREDENTIAL_ENCRYPTION_KEY);
    } catch (error) {
      issues.push({ variable: 'CREDENTIAL_ENCRYPTION_KEY', problem: (error as Error).message });
    }
  }
  try {
    messageOpeningKey(config.NOTIFIER_MESSAGE_KEY);
  } catch (error) {
    issues.push({ variable: 'NOTIFIER_MESSAGE_KEY', problem: `must be an X25519 private key in PKCS#8 PEM (${(error as Error).message.split('\n')[0]})` });
  }
  for (const cidr of config.NOTIFIER_SSRF_ALLOW_CIDRS ?? []) {
    try {
      parseCidr(cidr);
    } catch {
      issues.push({ variable: 'NOTIFIER_SSRF_ALLOW_CIDRS', problem: `"${cidr}" is not a CIDR or IP address` });
    }
  }
  if (config.SMS_GATEWAY_URL && !config.SMS_GATEWAY_TOKEN) {
    issues.push({ variable: 'SMS_GATEWAY_TOKEN', problem: 'is required when SMS_GATEWAY_URL is set' });
  }
  if (issues.length > 0) throw new ConfigError(issues);
  return config;
}
