import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { freePortBlock } from '@stormhook/testing';
import { sleep } from '../infra/net.js';
import { paths, repoRoot } from '../paths.js';
import { allServices } from '../services.js';

/**
 * `npm start` as a user or a process supervisor runs it (npm -> bootstrap -> supervisor -> services,
 * Kafka, FerretDB), stopped by a signal to its process group: what Ctrl-C (SIGINT) and
 * `kill -- -PGID`, `timeout` or systemd (SIGTERM) do. Every run has its own ports, its own instance
 * (logs, pid files, lock) and a private broker and database under .stack/data/<instance>, so it never
 * touches a developer's stack or the shared test infrastructure.
 */
const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const HOST = '127.0.0.1';

/** Processes whose environment names the instance: everything the stack started, at any depth. */
function processesOf(instance: string): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (!environ.split('\0').includes(`STORMHOOK_INSTANCE=${instance}`)) continue;
      const status = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (/\) Z /.test(status)) continue; // a zombie holds no resources; its parent is gone
      found.push({ pid: Number(entry), command: readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ') });
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

interface RunningStack {
  npm: ChildProcess;
  instance: string;
  output: string[];
  gateway: string;
  exited: Promise<number | null>;
}

async function startStack(instance: string): Promise<RunningStack> {
  // The six gRPC services, then Kafka (two), FerretDB and the gateway.
  const [grpcBase, , , , , , kafkaPort, controllerPort, ferretPort, gatewayPort] = await freePortBlock(10, HOST).then((base) =>
    Array.from({ length: 10 }, (_, i) => base + i),
  );
  // Never an external broker or database: the run must start (and stop) its own.
  const { KAFKA_BROKERS: _kafka, MONGO_URL: _mongo, ...env } = process.env;
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    // Its own process group, as a terminal's job or a service manager's unit: the test signals it all.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      STORMHOOK_INSTANCE: instance,
      STORMHOOK_PRIVATE_INFRA: instance,
      STORMHOOK_KAFKA_PORT: String(kafkaPort),
      STORMHOOK_KAFKA_CONTROLLER_PORT: String(controllerPort),
      STORMHOOK_KAFKA_HEAP_MB: '256',
      STORMHOOK_FERRETDB_PORT: String(ferretPort),
      STORMHOOK_GATEWAY_PORT: String(gatewayPort),
      STORMHOOK_GRPC_BASE_PORT: String(grpcBase),
      STORMHOOK_TOPIC_PREFIX: instance,
      STORMHOOK_ADMIN_EMAIL: 'stop-test@example.com',
      STORMHOOK_ADMIN_PASSWORD: 'stop-test-password-1',
      LOG_LEVEL: 'info',
    },
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  const up = new Promise<void>((resolve, reject) => {
    for (const stream of [npm.stdout!, npm.stderr!]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        if (line.includes('Stormhook is up')) resolve();
      });
    }
    void exited.then((code) => reject(new Error(`npm start exited (${code}) before the stack was up:\n${output.slice(-30).join('\n')}`)));
  });
  await up;
  return { npm, instance, output, gateway: `http://${HOST}:${gatewayPort}`, exited };
}

/** Some traffic through every service: health fans out to all six, failed logins reach identity. */
async function load(gateway: string): Promise<void> {
  const call = async (i: number) => {
    if (i % 20 === 0) {
      await fetch(`${gateway}/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ username: `nobody${i}@example.com`, password: 'wrong-password' }),
      }).then((r) => r.arrayBuffer());
    } else {
      await fetch(`${gateway}/v1/health`).then((r) => r.arrayBuffer());
    }
  };
  for (let i = 0; i < 300; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => call(i + j)));
}

function serviceLog(instance: string, service: string): string {
  const file = join(paths.logs, instance, `${service}.log`);
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}

describe('stopping the local stack (npm start) with a signal to its process group', function () {
  this.timeout(420_000);
  const instances: string[] = [];
  after(() => {
    for (const instance of instances) {
      if (processesOf(instance).length > 0) continue; // keep the evidence of a failure
      rmSync(join(paths.data, instance), { recursive: true, force: true });
      rmSync(join(paths.run, instance), { recursive: true, force: true });
      rmSync(join(paths.logs, instance), { recursive: true, force: true });
    }
  });

  for (const signal of SIGNALS) {
    for (const when of ['right after start', 'after load'] as const) {
      it(`${signal} ${when}: everything stops, every service logs "stopped", no process is left`, async () => {
        const instance = `stop-${signal.toLowerCase()}-${when === 'after load' ? 'load' : 'start'}-${process.pid}`;
        instances.push(instance);
        const stack = await startStack(instance);
        try {
          if (when === 'after load') await load(stack.gateway);
          const before = processesOf(instance);
          assert.ok(
            before.some((p) => p.command.includes('kafka.Kafka')),
            'the private Kafka runs',
          );
          assert.ok(
            before.some((p) => p.command.includes('ferretdb')),
            'the private FerretDB runs',
          );
          process.kill(-stack.npm.pid!, signal);
          const code = await stack.exited;
          assert.equal(code, 0, stack.output.slice(-30).join('\n'));
          // npm is the last to go: when it has exited, at most the watchdog is still leaving.
          let left = processesOf(instance);
          for (let i = 0; i < 25 && left.length > 0; i++) {
            await sleep(200);
            left = processesOf(instance);
          }
          assert.deepEqual(left, [], 'no process of the stack is left');
          assert.ok(
            stack.output.some((l) => l.includes('stopped; no process left behind')),
            stack.output.slice(-30).join('\n'),
          );
          for (const service of allServices) assert.match(serviceLog(instance, service), /"msg":"stopped"/, `${service} logged "stopped"`);
        } finally {
          for (const p of processesOf(instance)) {
            try {
              process.kill(p.pid, 'SIGKILL');
            } catch {
              // gone
            }
          }
        }
      });
    }
  }

  it('SIGKILL to the supervisor alone: its watchdog stops the services, then Kafka and FerretDB', async () => {
    const instance = `stop-sigkill-${process.pid}`;
    instances.push(instance);
    await startStack(instance);
    try {
      const supervisor = processesOf(instance).find((p) => p.command.includes(join('devstack', 'dist', 'cli.js')));
      assert.ok(supervisor, 'the supervisor runs');
      process.kill(supervisor.pid, 'SIGKILL');
      let left = processesOf(instance);
      for (let i = 0; i < 150 && left.length > 0; i++) {
        await sleep(200);
        left = processesOf(instance);
      }
      assert.deepEqual(left, [], 'no process of the stack is left');
      assert.match(readFileSync(join(paths.logs, instance, 'watchdog.log'), 'utf8'), /the supervisor is gone/);
    } finally {
      for (const p of processesOf(instance)) {
        try {
          process.kill(p.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
    }
  });
});
