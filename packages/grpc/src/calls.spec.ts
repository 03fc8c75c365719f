import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createGrpcServer } from './server.js';
import { createClient } from './client.js';
import { GrpcError, GrpcStatus } from './errors.js';
import type { HandlersOf } from './handlers.js';
import type { ServerCall } from './server-call.js';
import type { GrpcServer } from './server.js';
import { ProbeService, memoryLogger, sleep, startProbeServer, type LogLines } from './test-support.js';

describe('gRPC calls through createGrpcServer and createClient', () => {
  let server: GrpcServer;
  let client: ReturnType<typeof createClient<typeof ProbeService>>;
  let logs: LogLines;
  let slowCall: { signal: AbortSignal; deadline: Date | undefined } | undefined;
  let metadataSeen: string | undefined;

  const handlers: HandlersOf<typeof ProbeService> = {
    async echo(point, call: ServerCall) {
      metadataSeen = call.metadata.get('x-request-id')[0]?.toString();
      if (point.lng === 999) {
        // Runs until the client's deadline cancels it.
        slowCall = { signal: call.signal, deadline: call.deadline };
        await sleep(5000, call.signal);
      }
      return { lng: point.lat, lat: point.lng };
    },
    async fail(detail) {
      if (detail.reason === 'BUG') throw new Error('connection to mongodb://admin:hunter2@db failed');
      throw new GrpcError(GrpcStatus.RESOURCE_EXHAUSTED, detail.message, detail);
    },
    async *points(ring) {
      for (const point of ring.points) yield point;
      if (ring.points.length === 3) throw new GrpcError(GrpcStatus.OUT_OF_RANGE, 'three is too many');
    },
    async collect(points) {
      const collected = [];
      for await (const point of points) collected.push(point);
      return { points: collected };
    },
    async *mirror(points) {
      for await (const point of points) yield { lng: -point.lng, lat: -point.lat };
    },
  };

  before(async () => {
    logs = memoryLogger();
    const started = await startProbeServer(handlers, logs.logger);
    server = started.server;
    client = createClient(ProbeService, started.address, { deadlineMs: 2000 });
  });
  after(async () => {
    client.close();
    await server.shutdown();
  });

  it('round-trips a unary call with its metadata', async () => {
    const answer = await client.echo({ lng: 32.85, lat: 39.93 }, { metadata: { 'x-request-id': 'req_1' } });
    assert.deepEqual(answer, { lng: 39.93, lat: 32.85 });
    assert.equal(metadataSeen, 'req_1');
  });

  it('turns a thrown GrpcError into its status, message and detail on the client', async () => {
    const detail = {
      reason: 'QUOTA_EXCEEDED',
      message: 'limit reached',
      messages: ['daily'],
      httpStatus: 429,
      retryAfterMs: 60_000,
      metadata: { limit: '1000' },
    };
    const error = await client.fail(detail).then(
      () => assert.fail('the call should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrpcError);
    assert.equal(error.code, GrpcStatus.RESOURCE_EXHAUSTED);
    assert.equal(error.message, 'limit reached');
    assert.deepEqual(error.detail, detail);
  });

  it('answers any other error with a bare INTERNAL and logs it with the stack', async () => {
    const error = await client.fail({ reason: 'BUG', message: '', messages: [], metadata: {} }).then(
      () => assert.fail('the call should fail'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrpcError);
    assert.equal(error.code, GrpcStatus.INTERNAL);
    assert.equal(error.message, 'internal error');
    assert.equal(error.detail, undefined);
    const logged = logs.lines.find((line) => line['msg'] === 'gRPC handler failed');
    assert.ok(logged, 'the failure is logged');
    assert.equal(logged['rpc'], '/stormhook.test.v1.ProbeService/Fail');
    assert.match(JSON.stringify(logged['err']), /hunter2/); // the log has the detail the caller must not see
  });

  it('fails with DEADLINE_EXCEEDED when the server is slower than the deadline, and aborts the handler', async () => {
    const started = Date.now();
    const error = await client.echo({ lng: 999, lat: 0 }, { deadlineMs: 150 }).then(
      () => assert.fail('the call should time out'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof GrpcError);
    assert.equal(error.code, GrpcStatus.DEADLINE_EXCEEDED);
    assert.ok(Date.now() - started < 2000, 'the client gave up at its deadline');
    assert.ok(slowCall?.deadline, 'the handler saw the deadline');
    for (let i = 0; i < 50 && !slowCall.signal.aborted; i++) await sleep(10);
    assert.equal(slowCall.signal.aborted, true);
  });

  it('streams responses, then the status a handler throws mid-stream', async () => {
    const two = [];
    for await (const point of client.points({
      points: [
        { lng: 1, lat: 2 },
        { lng: 3, lat: 4 },
      ],
    }))
      two.push(point);
    assert.deepEqual(two, [
      { lng: 1, lat: 2 },
      { lng: 3, lat: 4 },
    ]);

    const received = [];
    const error = await (async () => {
      for await (const point of client.points({
        points: [
          { lng: 1, lat: 1 },
          { lng: 2, lat: 2 },
          { lng: 3, lat: 3 },
        ],
      }))
        received.push(point);
    })().then(
      () => assert.fail('the stream should fail'),
      (e: unknown) => e,
    );
    assert.equal(received.length, 3);
    assert.ok(error instanceof GrpcError);
    assert.equal(error.code, GrpcStatus.OUT_OF_RANGE);
  });

  it('lets a caller stop reading a response stream early', async () => {
    const first = [];
    for await (const point of client.points({
      points: [
        { lng: 1, lat: 1 },
        { lng: 2, lat: 2 },
        { lng: 3, lat: 3 },
      ],
    })) {
      first.push(point);
      break;
    }
    assert.deepEqual(first, [{ lng: 1, lat: 1 }]);
    await sleep(50); // the cancelled call's late status must not surface as an unhandled error
    assert.deepEqual(await client.echo({ lng: 1, lat: 2 }), { lng: 2, lat: 1 });
  });

  it('streams requests (client streaming and bidirectional)', async () => {
    const ring = await client.collect([
      { lng: 1, lat: 1 },
      { lng: 2, lat: 2 },
    ]);
    assert.deepEqual(ring, {
      points: [
        { lng: 1, lat: 1 },
        { lng: 2, lat: 2 },
      ],
    });

    async function* requests() {
      yield { lng: 5, lat: 6 };
      yield { lng: 7, lat: 8 };
    }
    const mirrored = [];
    for await (const point of client.mirror(requests())) mirrored.push(point);
    assert.deepEqual(mirrored, [
      { lng: -5, lat: -6 },
      { lng: -7, lat: -8 },
    ]);
  });

  it('waits for a peer that is not listening yet, until its deadline, then fails with DEADLINE_EXCEEDED', async () => {
    const nowhere = createClient(ProbeService, '127.0.0.1:1', { deadlineMs: 500 });
    try {
      const started = Date.now();
      const error = await nowhere.echo({ lng: 0, lat: 0 }).then(
        () => assert.fail('the call should fail'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof GrpcError);
      assert.equal(error.code, GrpcStatus.DEADLINE_EXCEEDED);
      assert.ok(Date.now() - started >= 450, 'it waited for the peer');
    } finally {
      nowhere.close();
    }
  });

  it('completes a call made before the peer started listening, once it does (services start in any order)', async () => {
    const free = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => resolve(port));
      });
    });
    const early = createClient(ProbeService, `127.0.0.1:${free}`, { deadlineMs: 5_000 });
    const late = createGrpcServer({ logger: memoryLogger().logger, serviceName: 'late', shutdownTimeoutMs: 1000, internalTokens: 'unauthenticated' });
    try {
      const call = early.echo({ lng: 1, lat: 2 });
      await sleep(300);
      late.add(ProbeService, handlers);
      await late.listen(`127.0.0.1:${free}`);
      assert.deepEqual(await call, { lng: 2, lat: 1 });
    } finally {
      early.close();
      await late.shutdown();
    }
  });
});
