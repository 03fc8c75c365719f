import assert from 'node:assert/strict';
import { ROLES } from '@stormhook/access';
import { mayListOtherAccounts, type Caller } from './caller.js';

describe('caller roles', () => {
  const as = (role: Caller['role']): Caller => ({ userId: 'u-1', accountId: 'a-1', role });

  it('lets POWER_USER and above list another account, and nobody below', () => {
    const allowed = ROLES.filter((role) => mayListOtherAccounts(as(role)));
    assert.deepEqual(allowed, ['POWER_USER', 'EXTENDED_USER', 'ADMIN']);
    assert.equal(mayListOtherAccounts(as('UNKNOWN')), false);
  });
});
