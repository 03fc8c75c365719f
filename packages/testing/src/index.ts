export {
  serviceTestEnv,
  testInfra,
  testKafkaCredentials,
  testKafkaEnv,
  testKafkaSasl,
  type ServiceTestEnv,
  type TestInfra,
  type TestKafkaLogin,
} from './infra.js';
export { uniqueName } from './names.js';
export { reportBench, machineDescription, BENCH_RESULT_PREFIX, type BenchResult } from './bench.js';
export { ensureChromium, openInChromium, type ChromiumPage } from './chromium.js';
export { freePort, freePortBlock } from './free-ports.js';
export { deletePrefixedTopics, dropPrefixedDatabases, removeServiceTestEnv } from './cleanup.js';
