#!/usr/bin/env node
import { allTopics } from '@stormhook/kafka';
import { runDeployChecks } from './run-checks.js';
import { renderTopicsFile, writeTopicsFile } from './topics-file.js';
import { renderGrpcEdgesFile, writeGrpcEdgesFile } from './grpc-edges-file.js';
import { renderKafkaAclsFile, writeKafkaAclsFile } from './kafka-acls-file.js';

/**
 * node packages/devstack/dist/deploy/cli.js check    all deployment checks (what CI runs)
 * node packages/devstack/dist/deploy/cli.js topics   regenerate the chart's files/topics.json
 * node packages/devstack/dist/deploy/cli.js grpc-edges   regenerate the chart's files/grpc-edges.json
 * node packages/devstack/dist/deploy/cli.js kafka-acls   regenerate the chart's files/kafka-acls.json
 */
const log = (message: string) => process.stderr.write(`[deploy] ${message}\n`);

async function main(): Promise<number> {
  const command = process.argv[2] ?? 'check';
  if (command === 'topics') {
    log(`wrote ${writeTopicsFile(renderTopicsFile(allTopics()))}`);
    return 0;
  }
  if (command === 'grpc-edges') {
    log(`wrote ${writeGrpcEdgesFile(renderGrpcEdgesFile())}`);
    return 0;
  }
  if (command === 'kafka-acls') {
    log(`wrote ${writeKafkaAclsFile(renderKafkaAclsFile())}`);
    return 0;
  }
  if (command === 'check') return (await runDeployChecks(log)) === 0 ? 0 : 1;
  log(`unknown command ${command}; expected check, topics, grpc-edges or kafka-acls`);
  return 2;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(error instanceof Error ? error.message : String(error));
    process.exit(1);
  },
);
