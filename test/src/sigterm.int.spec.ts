import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { deletePrefixedTopics, dropPrefixedDatabases, testInfra, uniqueName, testKafkaEnv } from '@stormhook/testing';

const services = ['gateway', 'identity', 'geo', 'ingest', 'query', 'alarm-matcher', 'notifier'];

/** Runs a service's real main.js as its own process and stops it the way Kubernetes does. */
async function startThenTerminate(service: string, topicPrefix: string, dbPrefix: string): Promise<{ code: number | null; lines: string[]; stopMs: number }> {
  const infra = testInfra();
  const main = fileURLToPath(new URL(`../../services/${service}/dist/main.js`, import.meta.url));
  const child = spawn(process.execPath, ['--disable-warning=TimeoutNegativeWarning', main], {
    env: {
      ...process.env,
      ...testKafkaEnv(infra),
      MONGO_URL: infra.mongoUrl,
      ...infra.internalKeys,
      LOG_LEVEL: 'info',
      STORMHOOK_DB_PREFIX: dbPrefix,
      // Its own topics and consumer groups: never the dev stack's real ones on a shared broker.
      STORMHOOK_TOPIC_PREFIX: topicPrefix,
      GRPC_HOST: '127.0.0.1',
      GRPC_PORT: '0',
      HTTP_HOST: '127.0.0.1',
      HTTP_PORT: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const started = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => {
      lines.push(line);
      if (line.includes('"msg":"started"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`${service} exited with ${code} before it started: ${lines.join('\n')}`)));
  });
  await started;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const before = Date.now();
  child.kill('SIGTERM');
  const code = await exited;
  return { code, lines, stopMs: Date.now() - before };
}

describe('every service stops cleanly on SIGTERM', () => {
  const topicPrefix = uniqueName('sig');
  const dbPrefix = topicPrefix.replace(/-/g, '_');
  after(async () => {
    await deletePrefixedTopics(testInfra().kafkaBrokers, topicPrefix);
    await dropPrefixedDatabases(testInfra().mongoUrl, dbPrefix);
  });

  for (const service of services) {
    it(`${service}: starts, connects, then exits 0 on SIGTERM`, async () => {
      const { code, lines, stopMs } = await startThenTerminate(service, topicPrefix, dbPrefix);
      assert.equal(code, 0, lines.join('\n'));
      assert.ok(
        lines.some((l) => l.includes('connected to Kafka and the database')),
        'connected',
      );
      assert.ok(
        lines.some((l) => l.includes('"msg":"stopped"')),
        'logged its stop',
      );
      assert.ok(stopMs < 15_000, `stop took ${stopMs} ms`);
    });
  }
});
