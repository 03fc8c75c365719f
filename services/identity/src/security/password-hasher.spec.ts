import assert from 'node:assert/strict';
import { HashMemoryBudget } from './hash-memory-budget.js';
import { PasswordHasher, PRODUCTION_ARGON2 } from './password-hasher.js';
import { hashScrypt } from './scrypt-legacy.js';

describe('PasswordHasher', () => {
  // Cheap parameters everywhere except the production-cost tests.
  const cheapParams = { memoryKiB: 1024, iterations: 1, parallelism: 1 };
  const cheap = new PasswordHasher(cheapParams);

  it('hashes with Argon2id at OWASP cost in PHC form and verifies', async function () {
    this.timeout(10_000);
    const hasher = new PasswordHasher();
    assert.deepEqual(PRODUCTION_ARGON2, { memoryKiB: 19_456, iterations: 2, parallelism: 1 });
    const phc = await hasher.hash('correct horse battery staple');
    assert.match(phc, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
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

  it('verifies Argon2id hashes of another cost and asks for a rehash', async () => {
    const old = await cheap.hash('pw-12345678');
    const current = new PasswordHasher({ memoryKiB: 2048, iterations: 1, parallelism: 1 });
    assert.equal(await current.verify('pw-12345678', old), true);
    assert.equal(current.needsRehash(old), true);
    assert.equal(cheap.needsRehash(old), false);
  });

  it('verifies scrypt hashes stored before Argon2id and always asks to upgrade them', async () => {
    const legacy = await hashScrypt('pw-legacy-123', { ln: 10, r: 8, p: 1 });
    assert.match(legacy, /^\$scrypt\$ln=10,r=8,p=1\$/);
    assert.equal(await cheap.verify('pw-legacy-123', legacy), true);
    assert.equal(await cheap.verify('pw-legacy-124', legacy), false);
    assert.equal(cheap.needsRehash(legacy), true);
  });

  it('answers false for malformed or hostile stored strings instead of throwing or allocating', async () => {
    const good = await cheap.hash('pw-12345678');
    const scrypt = await hashScrypt('pw-12345678', { ln: 10, r: 8, p: 1 });
    const hostile = [
      '',
      'plain',
      good.replace('$argon2id$', '$scrypt$'),
      good.replace('m=1024', 'm=4194304'), // 4 GiB
      good.replace('t=1', 't=100000'),
      good.slice(0, -10) + '!!!!!!!!!!',
      scrypt.replace('ln=10', 'ln=30'),
    ];
    for (const bad of hostile) {
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

  it('holds at most the memory budget in hashes during 50 parallel logins (issue 17 item 4)', async function () {
    this.timeout(30_000);
    const perHash = PRODUCTION_ARGON2.memoryKiB * 1024;
    const budget = new HashMemoryBudget(3 * perHash);
    const hasher = new PasswordHasher(PRODUCTION_ARGON2, budget);
    const stored = await hasher.hash('fifty-logins');
    let peakRunning = 0;
    let peakBytes = 0;
    let sawWaiting = false;
    const sampler = setInterval(() => {
      const s = hasher.inFlight;
      peakRunning = Math.max(peakRunning, s.running);
      peakBytes = Math.max(peakBytes, s.bytesInUse);
      sawWaiting ||= s.waiting > 0;
    }, 1);
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => hasher.verify(i % 2 === 0 ? 'fifty-logins' : 'wrong', stored)));
    clearInterval(sampler);
    assert.deepEqual(
      results,
      Array.from({ length: 50 }, (_, i) => i % 2 === 0),
    );
    assert.ok(sawWaiting, 'the burst queued behind the budget');
    assert.ok(peakRunning >= 1 && peakRunning <= 3, `at most 3 Argon2id hashes ran at once, saw ${peakRunning}`);
    assert.ok(peakBytes <= 3 * perHash, `at most the budget was reserved, saw ${peakBytes}`);
    assert.deepEqual(hasher.inFlight, { running: 0, waiting: 0, bytesInUse: 0 });
  });
});

describe('HashMemoryBudget', () => {
  const gate = (): { promise: Promise<void>; open: () => void } => {
    let open!: () => void;
    const promise = new Promise<void>((resolve) => (open = resolve));
    return { promise, open };
  };

  it('runs work within the budget, first come first served, and a hash larger than the budget alone', async () => {
    const budget = new HashMemoryBudget(100);
    const order: string[] = [];
    const a = gate();
    const b = gate();
    const first = budget.run(60, async () => {
      order.push('a');
      await a.promise;
    });
    const big = budget.run(500, async () => {
      order.push('big');
      await b.promise;
    });
    const small = budget.run(30, async () => {
      order.push('small');
    });
    await new Promise((r) => setImmediate(r));
    // small would fit beside a, but waits behind big so a large legacy verify is never starved.
    assert.deepEqual(order, ['a']);
    assert.deepEqual(budget.state, { running: 1, waiting: 2, bytesInUse: 60 });
    a.open();
    await first;
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(order, ['a', 'big']);
    assert.deepEqual(budget.state, { running: 1, waiting: 1, bytesInUse: 100 });
    b.open();
    await Promise.all([big, small]);
    assert.deepEqual(order, ['a', 'big', 'small']);
    assert.deepEqual(budget.state, { running: 0, waiting: 0, bytesInUse: 0 });
  });

  it('releases the reservation when the work fails', async () => {
    const budget = new HashMemoryBudget(10);
    await assert.rejects(
      budget.run(10, () => Promise.reject(new Error('boom'))),
      /boom/,
    );
    assert.deepEqual(budget.state, { running: 0, waiting: 0, bytesInUse: 0 });
  });
});
