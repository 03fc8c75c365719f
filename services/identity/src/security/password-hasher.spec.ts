import assert from 'node:assert/strict';
import { PasswordHasher, PRODUCTION_SCRYPT } from './password-hasher.js';

describe('PasswordHasher', () => {
  // Cheap parameters everywhere except the one production-cost test: 2^17 costs 128 MiB and ~200 ms.
  const cheap = new PasswordHasher({ ln: 10, r: 8, p: 1 });

  it('hashes at production cost in PHC form and verifies', async function () {
    this.timeout(10_000);
    const hasher = new PasswordHasher();
    assert.deepEqual(PRODUCTION_SCRYPT, { ln: 17, r: 8, p: 1 });
    const phc = await hasher.hash('correct horse battery staple');
    assert.match(phc, /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
    assert.equal(await hasher.verify('correct horse battery staple', phc), true);
    assert.equal(hasher.needsRehash(phc), false);
  });

  it('rejects a wrong password, and salts every hash', async () => {
    const a = await cheap.hash('s3cret-password');
    const b = await cheap.hash('s3cret-password');
    assert.notEqual(a, b);
    assert.equal(await cheap.verify('s3cret-password', b), true);
    assert.equal(await cheap.verify('s3cret-passwore', a), false);
    assert.equal(await cheap.verify('', a), false);
  });

  it('verifies hashes made with other parameters and asks for a rehash', async () => {
    const old = await cheap.hash('pw-12345678');
    const current = new PasswordHasher({ ln: 11, r: 8, p: 1 });
    assert.equal(await current.verify('pw-12345678', old), true);
    assert.equal(current.needsRehash(old), true);
    assert.equal(cheap.needsRehash(old), false);
  });

  it('answers false for malformed or hostile stored strings instead of throwing', async () => {
    const good = await cheap.hash('pw-12345678');
    for (const bad of ['', 'plain', good.replace('$scrypt$', '$argon2id$'), good.replace('ln=10', 'ln=30'), good.slice(0, -10) + '!!!!!!!!!!']) {
      assert.equal(await cheap.verify('pw-12345678', bad), false, bad);
      assert.equal(cheap.needsRehash(bad), true);
    }
  });

  it('normalises Unicode so that one password typed two ways matches', async () => {
    const composed = 'şifre-\u00e7ok-gizli';
    const decomposed = 'şifre-c\u0327ok-gizli';
    assert.notEqual(composed, decomposed);
    assert.equal(await cheap.verify(decomposed, await cheap.hash(composed)), true);
  });
});
