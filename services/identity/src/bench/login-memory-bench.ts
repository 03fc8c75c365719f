/**
 * Memory of identity during a burst of parallel logins (issue 17 item 4; not a test). Starts identity
 * as its own process (`dist/main.js`, as `npm start` does), seeds N users with production-cost password
 * hashes, resets the process's peak RSS, sends N logins at once over gRPC and prints the peak.
 *
 *   node services/identity/dist/bench/login-memory-bench.js [--logins 50] [--scrypt] [--budget-mib 64]
 *
 * `--scrypt` stores the users' hashes as scrypt N=2^17 (the records from before Argon2id: each verify
 * allocates 128 MiB); `--budget-mib 4096` effectively lifts the memory budget of hashes in flight, which
 * together show what the code before the fix did. Reads KAFKA_BROKERS and MONGO_URL like the tests.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createClient, testInternalKeys, testInternalTokens } from '@stormhook/grpc';
import { createKafkaClient, deleteTopics, TopicNames } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { identityV1 } from '@stormhook/proto';
import { freePort, testInfra, uniqueName, testKafkaEnv } from '@stormhook/testing';
import { hashScrypt } from '../security/scrypt-legacy.js';
import { PasswordHasher } from '../security/password-hasher.js';
import { startHarness } from '../test-support/harness.js';

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const logins = Number(option('logins') ?? 50);
const scrypt = process.argv.includes('--scrypt');
const budgetMib = option('budget-mib');

/** VmRSS and VmHWM (peak) of a process, MiB. */
function rssOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string): number => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: kib('VmRSS') / 1024, peak: kib('VmHWM') / 1024 };
}

async function main(): Promise<void> {
  const infra = testInfra();
  const logger = createLogger({ service: 'login-bench', level: 'warn' });
  const h = await startHarness('login-bench', { hasher: new PasswordHasher() });
  const dbPrefix = h.mongo.db.databaseName.replace(/_identity$/, '');
  const topicPrefix = uniqueName('login-bench');
  const users: Array<{ username: string; password: string }> = [];
  for (let i = 0; i < logins; i++) {
    const user = await h.user('STANDARD_USER');
    if (scrypt) await h.repos.credentials.setPasswordHash(user.userId, await hashScrypt(user.password, { ln: 17, r: 8, p: 1 }), new Date());
    users.push({ username: user.username, password: user.password });
  }

  const port = await freePort();
  // The bench plays the gateway: its calls carry the gateway's service token, signed with the key the child gets.
  const tokens = testInternalTokens();
  const child = spawn(
    process.execPath,
    ['--disable-warning=TimeoutNegativeWarning', '--enable-source-maps', fileURLToPath(new URL('../main.js', import.meta.url))],
    {
      env: {
        ...process.env,
        ...testKafkaEnv(infra),
        MONGO_URL: infra.mongoUrl,
        STORMHOOK_DB_PREFIX: dbPrefix,
        STORMHOOK_TOPIC_PREFIX: topicPrefix,
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: String(port),
        LOG_LEVEL: 'warn',
        ...testInternalKeys(),
        ...(budgetMib ? { IDENTITY_PASSWORD_HASH_BUDGET_MIB: budgetMib } : {}),
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const pid = child.pid!;
  // A generous deadline: the figure wanted is memory; queued logins on a busy shared machine take seconds.
  const client = createClient(identityV1.IdentityService, `127.0.0.1:${port}`, { deadlineMs: 60_000, internalToken: () => tokens.forService('identity') });
  try {
    for (let tries = 0; ; tries++) {
      try {
        await client.getTokenKeys({});
        break;
      } catch (error) {
        if (tries > 300 || child.exitCode !== null) throw error;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    const idle = rssOf(pid);
    // Writing 5 to clear_refs resets VmHWM, so the peak below is the burst's, not the start's.
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    let sampledPeak = 0;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, rssOf(pid).rss)), 5);
    const started = performance.now();
    const results = await Promise.allSettled(users.map((u) => client.login({ username: u.username, password: u.password, clientAddress: '' })));
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = rssOf(pid);
    const ok = results.filter((r) => r.status === 'fulfilled').length;
    const mode = `${scrypt ? 'scrypt N=2^17 records' : 'Argon2id m=19 MiB records'}, budget ${budgetMib ?? 'default (64)'} MiB`;
    console.log(`identity login memory, ${logins} parallel logins (${mode})`);
    console.log(`  logins ok          ${ok} of ${logins} in ${seconds.toFixed(2)} s`);
    console.log(`  RSS idle before    ${idle.rss.toFixed(1)} MiB`);
    console.log(`  RSS peak (VmHWM)   ${after.peak.toFixed(1)} MiB (sampled every 5 ms: ${sampledPeak.toFixed(1)} MiB)`);
    console.log(`  RSS after          ${after.rss.toFixed(1)} MiB`);
    if (ok !== logins) {
      const failure = results.find((r) => r.status === 'rejected');
      console.log(`  first failure      ${failure && 'reason' in failure ? String(failure.reason) : ''}`);
      process.exitCode = 1;
    }
  } finally {
    client.close();
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'login-bench', logger });
    await deleteTopics(kafka, [TopicNames.MessageRequested, TopicNames.UserChanged], { prefix: topicPrefix }).catch(() => undefined);
    await h.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
