import assert from 'node:assert/strict';
import type { Request } from 'express';
import { ApiError } from '@stormhook/errors';
import type { identityV1 } from '@stormhook/proto';
import { setAuthState } from '../http/auth-state.js';
import { requestState } from '../http/request-state.js';
import { FOREIGN_ACCOUNT_MESSAGE, targetAccountId, type AccountLookup } from './webhooks-account.js';

const OWN = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';

function requestOf(role: string, accountId: string | undefined): Request {
  const req = {} as Request;
  const principal: identityV1.Principal = { userId: 'u-1', accountId: OWN, role, username: 'u@example.com', via: 'access-token' };
  setAuthState(req, { principal });
  requestState(req).input = { params: {}, query: accountId === undefined ? {} : { accountId }, body: undefined };
  return req;
}

const identity: AccountLookup = {
  getAccount: async () => {
    throw new Error('not needed: the token names the account');
  },
};

describe('the account a webhook or delivery operation acts on', () => {
  it("is the caller's own, also when they name it", async () => {
    assert.equal(await targetAccountId(requestOf('API_USER', undefined), identity), OWN);
    assert.equal(await targetAccountId(requestOf('API_USER', OWN), identity), OWN);
  });

  it('is any named account for ADMIN', async () => {
    assert.equal(await targetAccountId(requestOf('ADMIN', OTHER), identity), OTHER);
  });

  it('answers 404 (not 403) to anyone else naming another account, like every other object', async () => {
    for (const role of ['API_USER', 'POWER_USER', 'EXTENDED_USER']) {
      await assert.rejects(targetAccountId(requestOf(role, OTHER), identity), (error: unknown) => {
        assert.ok(error instanceof ApiError);
        assert.equal(error.status, 404);
        assert.equal(error.message, FOREIGN_ACCOUNT_MESSAGE);
        return true;
      });
    }
  });
});
