import assert from 'node:assert/strict';
import { createClient, GrpcError, GrpcStatus, testInternalTokens, tokenOfRequestPrincipal, untrustedTokens } from '@stormhook/grpc';
import { createKafkaClient, deleteTopics, TopicNames } from '@stormhook/kafka';
import { createLogger } from '@stormhook/logger';
import { connectMongo } from '@stormhook/mongo';
import { identityV1 } from '@stormhook/proto';
import { serviceTestEnv, testInfra } from '@stormhook/testing';
import { loadConfig } from './config.js';
import { start } from './service.js';

describe('identity service (real Kafka and database)', function () {
  this.timeout(30_000);
  const infra = testInfra();
  const { env, dbPrefix: prefix, topicPrefix } = serviceTestEnv('ids', infra);
  const logger = createLogger({ service: 'identity-spec', level: 'silent' });
  const config = loadConfig({
    ...env,
    STORMHOOK_ADMIN_EMAIL: 'root@stormhook.test',
    STORMHOOK_ADMIN_PASSWORD: 'root-password-1',
    IDENTITY_PASSWORD_HASH_MEMORY_KIB: '1024',
  });

  after(async () => {
    const kafka = createKafkaClient({ brokers: infra.kafkaBrokers, credentials: infra.kafkaCredentials, clientId: 'identity-spec', logger });
    await deleteTopics(kafka, [TopicNames.MessageRequested], { prefix: topicPrefix });
    const mongo = await connectMongo({ url: infra.mongoUrl, dbName: `${prefix}_identity`, appName: 'identity-spec' });
    await mongo.db.dropDatabase();
    await mongo.close();
  });

  async function withService<T>(work: (client: ReturnType<typeof createClient<typeof identityV1.IdentityService>>) => Promise<T>): Promise<T> {
    const service = await start(config, { logger });
    const client = createClient(identityV1.IdentityService, `127.0.0.1:${service.port}`, {
      internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'identity'),
    });
    try {
      return await work(client);
    } finally {
      client.close();
      await service.stop();
    }
  }

  it('creates the first ADMIN from the environment and keeps its development signing key across restarts', async () => {
    const first = await withService(async (client) => {
      const keys = await client.getTokenKeys({});
      const pair = await client.login({ username: 'root@stormhook.test', password: 'root-password-1', clientAddress: '' });
      return { keys, pair };
    });
    assert.equal(first.keys.algorithm, 'EdDSA');
    assert.equal(first.keys.keys.length, 1);
    assert.match(first.keys.keys[0]?.publicKeyPem ?? '', /^-----BEGIN PUBLIC KEY-----/);
    assert.equal(first.pair.type, 'Bearer');

    await withService(async (client) => {
      const keys = await client.getTokenKeys({});
      assert.equal(keys.keys[0]?.kid, first.keys.keys[0]?.kid, 'the same key signs after a restart');
      // The session of the first run lives on.
      const refreshed = await client.refreshToken({ refreshToken: first.pair.refreshToken });
      assert.equal(refreshed.username, 'root@stormhook.test');
      // A second start did not create a second administrator.
      const page = await client.listUsers({
        actor: {
          userId: JSON.parse(Buffer.from(first.pair.accessToken.split('.')[1] ?? '', 'base64url').toString()).sub,
          accountId: '',
          role: 'ADMIN',
          username: '',
          via: 'access-token',
        },
        roles: '[ADMIN]',
        status: '',
        sortBy: [],
        includeAccount: false,
      });
      assert.equal(page.page?.totalRecords, 1);
    });
  });

  it('answers expected failures with a status and the public HTTP status in the detail', async () => {
    await withService(async (client) => {
      const failure = await client.login({ username: 'root@stormhook.test', password: 'wrong', clientAddress: '' }).catch((e: unknown) => e);
      assert.ok(failure instanceof GrpcError);
      assert.equal(failure.code, GrpcStatus.UNAUTHENTICATED);
      assert.equal(failure.detail?.httpStatus, 401);
      const anonymous = await client.getCurrentUser({ actor: null }).catch((e: unknown) => e);
      assert.ok(anonymous instanceof GrpcError && anonymous.code === GrpcStatus.UNAUTHENTICATED);
      const decision = await client.checkAccess({ principal: null, operationId: 'getCurrentForecast', location: null });
      assert.deepEqual(
        { allowed: decision.allowed, httpStatus: decision.httpStatus, reason: decision.reason },
        { allowed: false, httpStatus: 401, reason: 'UNAUTHENTICATED' },
      );
      // The gateway's access snapshot: a bad id names the field; an unknown user is "not found", not an error.
      const bad = await client.getAccessSnapshot({ userId: 'nope', accountId: '' }).catch((e: unknown) => e);
      assert.ok(bad instanceof GrpcError && bad.code === GrpcStatus.INVALID_ARGUMENT && /userId/.test(bad.message), String(bad));
      assert.equal((await client.getAccessSnapshot({ userId: '99999999-9999-4999-8999-999999999999', accountId: '' })).found, false);
    });
  });

  it('refuses calls without a valid internal token, and a request naming another caller than its token', async () => {
    const service = await start(config, { logger });
    const address = `127.0.0.1:${service.port}`;
    try {
      // The real administrator, so that only the missing proof can be the reason for a refusal.
      const mongo = await connectMongo({ url: infra.mongoUrl, dbName: `${prefix}_identity`, appName: 'identity-spec' });
      const adminDoc = await mongo.db.collection<{ _id: string }>('users').findOne({ username: 'root@stormhook.test' });
      await mongo.close();
      const admin: identityV1.Principal = { userId: adminDoc!._id, accountId: '', role: 'ADMIN', username: 'root@stormhook.test', via: 'access-token' };
      const vouched = createClient(identityV1.IdentityService, address, { internalToken: tokenOfRequestPrincipal(testInternalTokens(), 'identity') });
      assert.equal((await vouched.getCurrentUser({ actor: admin })).username, 'root@stormhook.test');
      vouched.close();
      for (const [what, internalToken] of Object.entries(untrustedTokens('identity'))) {
        const client = createClient(identityV1.IdentityService, address, internalToken ? { internalToken } : {});
        const failure = await client.getCurrentUser({ actor: admin }).catch((e: unknown) => e);
        client.close();
        assert.ok(failure instanceof GrpcError && failure.code === GrpcStatus.UNAUTHENTICATED, `${what}: ${String(failure)}`);
      }
      // Signed by the key, but for a nobody; the request claims the administrator.
      const tokens = testInternalTokens();
      const nobody: identityV1.Principal = {
        userId: '00000000-0000-4000-8000-000000000001',
        accountId: '',
        role: 'API_USER',
        username: '',
        via: 'access-token',
      };
      const forger = createClient(identityV1.IdentityService, address, { internalToken: () => tokens.forPrincipal('identity', nobody) });
      const forged = await forger.getCurrentUser({ actor: admin }).catch((e: unknown) => e);
      // A service's own token cannot act for a user either: the actor in the message counts for nothing.
      const serviceOnly = createClient(identityV1.IdentityService, address, { internalToken: tokens.serviceTokenFor('identity') });
      const unvouched = await serviceOnly.getCurrentUser({ actor: admin }).catch((e: unknown) => e);
      forger.close();
      serviceOnly.close();
      assert.ok(forged instanceof GrpcError && forged.code === GrpcStatus.PERMISSION_DENIED, String(forged));
      assert.ok(unvouched instanceof GrpcError && unvouched.code === GrpcStatus.UNAUTHENTICATED, String(unvouched));
    } finally {
      await service.stop();
    }
  });
});
