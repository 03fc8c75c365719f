import assert from 'node:assert/strict';
import { OPERATION_IDS, ROUTES } from '@stormhook/gateway';
import { OPERATION_RULES, operationRule } from '@stormhook/identity';

describe('identity access rules and the gateway route table', () => {
  it('has a rule for every operation of the gateway (a missing rule would deny it with 403)', () => {
    const missing = OPERATION_IDS.filter((id) => operationRule(id) === undefined);
    assert.deepEqual(missing, []);
  });

  it('agrees on which operations are open: public rules are exactly the unauthenticated routes', () => {
    for (const route of ROUTES) {
      assert.equal(operationRule(route.operationId)?.auth === 'public', !route.authenticated, route.operationId);
    }
  });

  it('has no rule for an operation the gateway does not serve', () => {
    const served = new Set<string>(OPERATION_IDS);
    assert.deepEqual(
      Object.keys(OPERATION_RULES).filter((id) => !served.has(id)),
      [],
    );
  });
});
