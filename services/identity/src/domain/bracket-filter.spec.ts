import assert from 'node:assert/strict';
import { parseBracketList } from './bracket-filter.js';
import { ROLES } from '@stormhook/access';
import { USER_STATUSES } from './user.js';

describe('parseBracketList', () => {
  const roles = (raw: unknown) => parseBracketList('roles', raw, ROLES);

  it('parses the contract notation "[ADMIN, API_USER]"', () => {
    assert.deepEqual(roles('[ADMIN, API_USER]'), { ok: true, value: ['ADMIN', 'API_USER'] });
    assert.deepEqual(roles('[ADMIN,API_USER]'), { ok: true, value: ['ADMIN', 'API_USER'] });
    assert.deepEqual(roles('  [ POWER_USER ]  '), { ok: true, value: ['POWER_USER'] });
  });

  it('treats absent and empty lists as no filter', () => {
    for (const empty of [undefined, null, '', '[]', '[  ]', []]) assert.deepEqual(roles(empty), { ok: true, value: [] }, String(empty));
  });

  it('accepts what clients commonly send: JSON arrays, quotes, lower case, no brackets, duplicates', () => {
    assert.deepEqual(roles(['ADMIN', 'GUEST']), { ok: true, value: ['ADMIN', 'GUEST'] });
    assert.deepEqual(roles('["ADMIN", \'guest\']'), { ok: true, value: ['ADMIN', 'GUEST'] });
    assert.deepEqual(roles('ADMIN'), { ok: true, value: ['ADMIN'] });
    assert.deepEqual(roles('[ADMIN, admin]'), { ok: true, value: ['ADMIN'] });
    assert.deepEqual(parseBracketList('status', '[ACTIVE, BLOCKED]', USER_STATUSES), { ok: true, value: ['ACTIVE', 'BLOCKED'] });
  });

  it('names the field and the bad value', () => {
    const unknown = roles('[ADMIN, SUPERUSER]');
    assert.equal(unknown.ok, false);
    assert.ok(!unknown.ok && unknown.error.kind === 'validation');
    assert.equal(unknown.error.field, 'roles');
    assert.match(unknown.error.message, /^roles: unknown value "SUPERUSER"/);

    const status = parseBracketList('status', '[ACTIVE, GONE]', USER_STATUSES);
    assert.ok(!status.ok && status.error.kind === 'validation' && status.error.field === 'status');

    for (const bad of ['[ADMIN', 'ADMIN]', '[ADMIN,,GUEST]', '[ADMIN,]', 42, { ADMIN: true }, [1]]) {
      const result = roles(bad);
      assert.ok(!result.ok && result.error.kind === 'validation' && result.error.field === 'roles', String(bad));
    }
  });
});
