import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createApp } from '@stormhook/gateway';
import { createClient, createGrpcServer, type GrpcServer } from '@stormhook/grpc';
import {
  createConsumer,
  createKafkaClient,
  createPublisher,
  deleteTopics,
  ensureTopics,
  EventTypes,
  Outcomes,
  TopicNames,
  topicSpec,
  type EventConsumer,
  type Publisher,
} from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { commonV1, methodDefinition } from '@stormhook/proto';
import { InMemorySpanExporter, initTelemetry, SimpleSpanProcessor, type Telemetry } from '@stormhook/telemetry';
import { testInfra, uniqueName } from '@stormhook/testing';

// A test-only rpc built from a contract message, so no product contract exists just for a test.
const EchoService = {
  echo: methodDefinition({
    path: '/stormhook.testing.v1.EchoService/Echo',
    originalName: 'Echo',
    requestStream: false,
    responseStream: false,
    requestType: commonV1.GeoPoint,
    responseType: commonV1.GeoPoint,
  }),
} as const;

describe('one trace across HTTP, gRPC and Kafka', () => {
  const infra = testInfra();
  const prefix = uniqueName('trace');
  const logger = createLogger({ service: 'trace-test', level: 'silent' });
  const exporter = new InMemorySpanExporter();
  const topic = TopicNames.UserChanged;
  let telemetry: Telemetry;
  let grpcServer: GrpcServer;
  let httpServer: Server;
  let publisher: Publisher;
  let consumer: EventConsumer;
  const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'trace-test', logger });
  const consumed: Array<{ traceparent: string | undefined; activeTraceId: string | undefined }> = [];
  let received: () => void;
  const gotRecord = new Promise<void>((resolve) => (received = resolve));

  before(async () => {
    telemetry = initTelemetry({ serviceName: 'trace-test', spanProcessors: [new SimpleSpanProcessor({ exporter })] });
    await ensureTopics(kafka, [topicSpec(topic), topicSpec(TopicNames.DeadLetter)], { prefix });
    publisher = createPublisher(kafka, { logger, clientId: 'trace-test', prefix });
    await publisher.connect();

    // gRPC server whose handler publishes a Kafka event.
    grpcServer = createGrpcServer({ logger, serviceName: 'echo', internalTokens: 'unauthenticated' });
    grpcServer.add(EchoService, {
      echo: async (point) => {
        await publisher.publish(topic, [{ key: 'k', value: Buffer.from(commonV1.GeoPoint.encode(point)), eventType: EventTypes.UserChanged }]);
        return point;
      },
    });
    const grpcPort = await grpcServer.listen('127.0.0.1:0');
    const client = createClient(EchoService, `127.0.0.1:${grpcPort}`, { deadlineMs: 5_000 });

    // The real gateway app, with one operation's handler calling the gRPC service.
    const app = createApp({
      logger,
      health: { check: async () => ({ status: 'up', components: {} }) },
      handlers: {
        getGeometryByEventIds: async (_req, res) => {
          const echoed = await client.echo({ lng: 29.03, lat: 40.99 });
          res.json(echoed);
        },
      },
    });
    httpServer = createServer(app);
    await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));

    consumer = createConsumer({
      kafka,
      groupId: uniqueName('trace-group'),
      topics: [topic],
      publisher,
      logger,
      prefix,
      handler: async (record) => {
        const { trace } = await import('@stormhook/telemetry');
        consumed.push({ traceparent: record.headers.traceparent, activeTraceId: trace.getActiveSpan()?.spanContext().traceId });
        received();
        return Outcomes.ok();
      },
    });
    await consumer.start();
  });

  after(async () => {
    await consumer?.stop();
    await publisher?.disconnect();
    await grpcServer?.shutdown();
    await new Promise<void>((resolve) => (httpServer ? httpServer.close(() => resolve()) : resolve()));
    await deleteTopics(kafka, [topic, TopicNames.DeadLetter], { prefix });
    await telemetry?.shutdown();
  });

  it('continues the caller trace from the HTTP request through the gRPC call into the Kafka consumer', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const port = (httpServer.address() as AddressInfo).port;
    const response = await fetch(`http://127.0.0.1:${port}/v1/precipitations/geometry`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      body: JSON.stringify({ eventIds: [] }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    assert.deepEqual(await response.json(), { lng: 29.03, lat: 40.99 });
    await gotRecord;

    assert.equal(consumed[0]?.activeTraceId, traceId, 'the consumer runs inside the same trace');
    assert.match(consumed[0]?.traceparent ?? '', new RegExp(`^00-${traceId}-`));
    // The consumer span ends just after the handler returns: wait for it.
    for (let i = 0; i < 50 && !exporter.getFinishedSpans().some((s) => s.kind === 4); i++) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const spans = exporter.getFinishedSpans();
    const kinds = new Map(spans.map((s) => [s.name, s.spanContext().traceId]));
    for (const [name, id] of kinds) assert.equal(id, traceId, `span ${name} is in the caller's trace`);
    // SpanKind: 1 SERVER, 2 CLIENT, 3 PRODUCER, 4 CONSUMER.
    const seen = new Set(spans.map((s) => s.kind));
    for (const kind of [1, 2, 3, 4]) assert.ok(seen.has(kind), `a span of kind ${kind} was recorded: ${[...kinds.keys()].join(', ')}`);
  });
});
