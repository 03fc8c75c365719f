import assert from 'node:assert/strict';
import { atLeast, compareRoles, isRole, ROLES, type Role } from './roles.js';

describe('roles', () => {
  it('orders GUEST < API_USER < STANDARD_USER < POWER_USER < EXTENDED_USER < ADMIN', () => {
    assert.deepEqual([...ROLES], ['GUEST', 'API_USER', 'STANDARD_USER', 'POWER_USER', 'EXTENDED_USER', 'ADMIN']);
    const shuffled: Role[] = ['ADMIN', 'GUEST', 'POWER_USER', 'API_USER', 'EXTENDED_USER', 'STANDARD_USER'];
    assert.deepEqual(shuffled.sort(compareRoles), [...ROLES]);
  });

  it('atLeast holds exactly for the role itself and those above it', () => {
    for (const [i, role] of ROLES.entries()) {
      for (const [j, min] of ROLES.entries()) assert.equal(atLeast(role, min), i >= j, `${role} >= ${min}`);
    }
  });

  it('never lets an unknown role pass', () => {
    assert.equal(atLeast('ROOT' as Role, 'GUEST'), false);
    assert.equal(isRole('ROOT'), false);
    assert.equal(isRole('ADMIN'), true);
    assert.equal(isRole('admin'), false);
  });
});
