#!/usr/bin/env node
import { runDeployChecks } from './run-checks.js';
import { writeGeneratedFile } from './generated-file.js';
import { GENERATED_FILES } from './generated-files.js';

/**
 * node tools/devstack/dist/deploy/cli.js check    all deployment checks (what CI runs)
 * node tools/devstack/dist/deploy/cli.js topics   regenerate the chart's files/topics.json
 * node tools/devstack/dist/deploy/cli.js grpc-edges   regenerate the chart's files/grpc-edges.json
 * node tools/devstack/dist/deploy/cli.js kafka-acls   regenerate the chart's files/kafka-acls.json
 * node tools/devstack/dist/deploy/cli.js mongo-users  regenerate the chart's files/mongo-users.json
 */
const log = (message: string) => process.stderr.write(`[deploy] ${message}\n`);

async function main(): Promise<number> {
  const command = process.argv[2] ?? 'check';
  const generated = GENERATED_FILES.find((file) => file.command === command);
  if (generated) {
    log(`wrote ${writeGeneratedFile(generated)}`);
    return 0;
  }
  if (command === 'check') return (await runDeployChecks(log)) === 0 ? 0 : 1;
  log(`unknown command ${command}; expected check, ${GENERATED_FILES.map((file) => file.command).join(', ')}`);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
