import assert from 'node:assert/strict';
import { createClient, GrpcError, GrpcStatus, testInternalTokens, untrustedTokens } from '@stormhook/grpc';
import { createLogger } from '@stormhook/logger';
import { queryV1, type identityV1 } from '@stormhook/proto';
import type { RunningGrpcService } from '@stormhook/service-kit';
import { removeServiceTestEnv, serviceTestEnv, testInfra } from '@stormhook/testing';
import type { GeoAreasClient } from '@stormhook/access';
import { loadConfig, start } from './index.js';

const logger = createLogger({ service: 'query-it', level: process.env['TEST_LOG_LEVEL'] ?? 'silent' });

/** No subscription areas: enough for calls that never reach a geography. */
const noAreas: GeoAreasClient = {
  listCountries: async () => ({ countries: [] }),
  listCities: async () => ({ cities: [] }),
};

describe('query service gRPC authentication (real Kafka and database)', function () {
  this.timeout(60_000);
  const infra = testInfra();
  const testEnv = serviceTestEnv('query-it', infra);
  const config = loadConfig({ ...testEnv.env, LOG_LEVEL: 'silent' });
  let service: RunningGrpcService;
  let address: string;

  before(async () => {
    service = await start(config, { logger, geo: noAreas });
    address = `127.0.0.1:${service.port}`;
  });

  after(async () => {
    await service?.stop();
    await removeServiceTestEnv(infra, testEnv);
  });

  /** The code one call answers: an empty event id is the handler's own INVALID_ARGUMENT, so that code means it ran. */
  const codeWith = async (internalToken: (() => string) | undefined): Promise<GrpcStatus> => {
    const client = createClient(queryV1.QueryService, address, { deadlineMs: 10_000, ...(internalToken ? { internalToken } : {}) });
    try {
      await client.getThunderstorm({ eventId: '' });
      return GrpcStatus.OK;
    } catch (error) {
      if (!(error instanceof GrpcError)) throw error;
      return error.code;
    } finally {
      client.close();
    }
  };

  it('refuses gRPC calls without a valid internal token', async () => {
    for (const [what, internalToken] of Object.entries(untrustedTokens('query'))) {
      assert.equal(await codeWith(internalToken), GrpcStatus.UNAUTHENTICATED, what);
    }
  });

  it("serves the gateway's calls, its own and a customer's", async () => {
    const customer: identityV1.Principal = { userId: 'u-query-it', accountId: 'a-query-it', role: 'API_USER', username: 'q@example.com', via: 'api-key' };
    const gateway = testInternalTokens();
    assert.equal(await codeWith(gateway.serviceTokenFor('query')), GrpcStatus.INVALID_ARGUMENT);
    assert.equal(await codeWith(() => gateway.forPrincipal('query', customer)), GrpcStatus.INVALID_ARGUMENT);
  });
});
