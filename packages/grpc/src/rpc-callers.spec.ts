import assert from 'node:assert/strict';
import { identityV1, notificationV1, queryV1, serviceNameOf } from '@stormhook/proto';
import { callersOf, GRPC_RPC_CALLERS, rpcCallersOf, type GrpcServiceName } from './edges.js';

describe('the per-rpc caller table', () => {
  it('narrows the edge table only: every caller it names may call the service at all', () => {
    for (const [service, tables] of Object.entries(GRPC_RPC_CALLERS)) {
      const edgeCallers = callersOf(service as GrpcServiceName);
      const all = (tables ?? []).flatMap((table) => Object.entries(table.rpcs));
      for (const [rpc, callers] of all) {
        for (const caller of callers)
          assert.ok(edgeCallers.includes(caller), `${caller} may call ${service}.${rpc} but is no caller of ${service} in GRPC_EDGES`);
      }
      // An edge nobody uses is a hole in the NetworkPolicies: each caller needs at least one rpc.
      for (const caller of edgeCallers) {
        assert.ok(
          all.some(([, callers]) => callers.includes(caller)),
          `${caller} calls ${service} in GRPC_EDGES but no rpc of it`,
        );
      }
    }
  });

  it('lets the alarm-matcher call only what it calls of the notifier', () => {
    const rpcs = rpcCallersOf('notifier', serviceNameOf(notificationV1.NotifierService)) ?? {};
    const matcher = Object.keys(rpcs).filter((rpc) => rpcs[rpc]?.includes('alarm-matcher'));
    assert.deepEqual(matcher.sort(), ['createWebhookEndpoint', 'getWebhookEndpoint']);
    assert.deepEqual(Object.keys(rpcs).sort(), Object.keys(notificationV1.NotifierService).sort());
    assert.equal(rpcCallersOf('notifier', 'grpc.health.v1.Health'), undefined, 'health stays open to probes');
    assert.equal(rpcCallersOf('geo', 'stormhook.geo.v1.GeoService'), undefined);
  });

  it("lets the alarm-matcher read identity's access snapshots and nothing else (registration entitlement)", () => {
    const rpcs = rpcCallersOf('identity', serviceNameOf(identityV1.IdentityService)) ?? {};
    const matcher = Object.keys(rpcs).filter((rpc) => rpcs[rpc]?.includes('alarm-matcher'));
    assert.deepEqual(matcher, ['getAccessSnapshot']);
    assert.deepEqual(Object.keys(rpcs).sort(), Object.keys(identityV1.IdentityService).sort());
    assert.ok(
      Object.values(rpcs).every((callers) => callers.includes('gateway')),
      'the gateway keeps every identity rpc',
    );
  });

  it("lets the alarm-matcher read query's weather history and none of the /v1 weather reads", () => {
    const history = rpcCallersOf('query', serviceNameOf(queryV1.WeatherHistoryService)) ?? {};
    assert.deepEqual(Object.keys(history), Object.keys(queryV1.WeatherHistoryService));
    assert.ok(history['readHistory']?.includes('alarm-matcher'));
    const reads = rpcCallersOf('query', serviceNameOf(queryV1.QueryService)) ?? {};
    assert.deepEqual(Object.keys(reads).sort(), Object.keys(queryV1.QueryService).sort());
    for (const [rpc, callers] of Object.entries(reads)) assert.deepEqual(callers, ['gateway'], rpc);
  });
});
