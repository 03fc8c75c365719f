import assert from 'node:assert/strict';
import * as ingest from '@stormhook/ingest';
import { createLogger } from '@stormhook/logger';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { deletePrefixedTopics, dropPrefixedDatabases, testInfra, uniqueName, testKafkaEnv } from '@stormhook/testing';

describe('Prometheus metrics of a service (service-kit)', () => {
  const prefix = uniqueName('metrics');
  const dbPrefix = prefix.replace(/-/g, '_');
  let service: RunningGrpcService;

  before(async () => {
    const infra = testInfra();
    service = await ingest.start(
      ingest.loadConfig({
        ...testKafkaEnv(infra),
        MONGO_URL: infra.mongoUrl,
        ...infra.internalKeys,
        STORMHOOK_DB_PREFIX: dbPrefix,
        STORMHOOK_TOPIC_PREFIX: prefix,
        GRPC_HOST: '127.0.0.1',
        GRPC_PORT: '0',
        METRICS_HOST: '127.0.0.1',
        METRICS_PORT: '0',
      }),
      { logger: createLogger({ service: 'ingest', level: 'silent' }) },
    );
  });

  after(async () => {
    await service?.stop();
    await deletePrefixedTopics(testInfra().kafkaBrokers, prefix);
    await dropPrefixedDatabases(testInfra().mongoUrl, dbPrefix);
  });

  it('serves process metrics labelled with the service at /metrics on METRICS_PORT, and 404 elsewhere', async () => {
    const port = service.platform.metricsPort;
    assert.ok(port !== undefined && port > 0);
    const response = await fetch(`http://127.0.0.1:${port}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/plain/);
    const text = await response.text();
    assert.match(text, /process_cpu_seconds_total\{service="ingest"\} \d/);
    assert.match(text, /nodejs_heap_size_used_bytes\{service="ingest"\} \d/);
    assert.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
  });
});
