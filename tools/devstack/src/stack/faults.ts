import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { DevstackConfig } from '../config.js';
import { ensureInfra } from '../infra/infra.js';
import type { InfraControl } from '../infra/private-infra.js';
import { repoRoot } from '../paths.js';
import { nodeFlags } from './node-flags.js';
import { runnerEnv } from './runner-env.js';

type Log = (message: string) => void;

/** What the fault runner may ask over its IPC channel, answered with `{ id, ok, error? }`. */
interface InfraRequest {
  id: number;
  op: keyof InfraControl;
}
const OPS = new Set<string>(['stopKafka', 'startKafka', 'stopDatabase', 'startDatabase']);

/**
 * `npm run faults`: the fault scenarios and the soak (test/dist/faults/run.js) against a PRIVATE
 * Kafka and FerretDB (.stack/data/faults, the STORMHOOK_FAULTS_* ports), because the scenarios stop
 * and restart them and must never disturb the shared dev/test broker and database. The runner asks
 * this process to stop or start them over the IPC channel.
 */
export async function runFaults(config: DevstackConfig, log: Log, args: string[]): Promise<number> {
  const privateConfig: DevstackConfig = {
    ...config,
    ...config.faults,
    kafkaHeapMb: Math.min(config.kafkaHeapMb, 512),
    externalKafka: undefined,
    externalMongo: undefined,
  };
  const infra = await ensureInfra(privateConfig, log, { dataDir: 'faults' });
  const control = infra.control!;
  try {
    return await new Promise<number>((resolve) => {
      const child = spawn(process.execPath, [...nodeFlags, join(repoRoot, 'test', 'dist', 'faults', 'run.js'), ...args], {
        cwd: repoRoot,
        stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
        env: runnerEnv(infra, process.env['LOG_LEVEL'] ?? 'silent'),
      });
      child.on('message', (message: InfraRequest) => {
        if (!OPS.has(message.op)) return;
        log(`faults: ${message.op}`);
        control[message.op]().then(
          () => child.send({ id: message.id, ok: true }),
          (error: unknown) => child.send({ id: message.id, ok: false, error: error instanceof Error ? error.message : String(error) }),
        );
      });
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => child.kill(signal));
      child.on('exit', (code) => resolve(code ?? 1));
    });
  } finally {
    await infra.stop();
  }
}
