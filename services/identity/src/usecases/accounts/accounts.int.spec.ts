import assert from 'node:assert/strict';
import type { Principal } from '@stormhook/access';
import { LINK_ORIGIN, MapGeo, must, startHarness, type Harness } from '../../test-support/harness.js';

describe('accounts: ownership, profile, phone activation (real database)', () => {
  let h: Harness;
  let admin: Principal;
  before(async () => {
    h = await startHarness('accounts');
    admin = await h.user('ADMIN');
  });
  after(async () => {
    await h?.close();
  });

  it('creates one account per user for the owner, with self-service plans only', async () => {
    const u = await h.user('STANDARD_USER');
    const premium = await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'PREMIUM_YEARLY' });
    assert.ok(!premium.ok && premium.error.kind === 'forbidden');
    const account = must(
      await h.uc.accounts.createAccount(u, {
        userId: u.userId,
        type: 'INDIVIDUAL',
        subscriptionPlan: 'TRIAL',
        mobilePhoneNumber: '+90 532 123 45 67',
        company: ' Acme ',
      }),
    );
    assert.equal(account.userId, u.userId);
    assert.equal(account.subscriptionPlan, 'TRIAL');
    assert.equal(account.mobilePhoneNumber, '+905321234567');
    assert.equal(account.company, 'Acme');
    assert.equal(account.emailVerified, false);
    assert.equal(account.mobilePhoneNumberVerified, false);
    const second = await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' });
    assert.ok(!second.ok && second.error.kind === 'conflict');
    const sub = must(await h.uc.subscriptions.getSubscription(u, account.id));
    assert.equal(sub.active, true);
    assert.equal(sub.expiresAt?.getTime(), h.clock.now().getTime() + 14 * 24 * 3600_000);
  });

  it('answers not-found for foreign users and accounts, whatever the operation', async () => {
    const owner = await h.user('STANDARD_USER');
    const stranger = await h.user('STANDARD_USER');
    const notFound = (r: { ok: boolean; error?: { kind: string } }) => !r.ok && r.error?.kind === 'not-found';
    assert.ok(notFound(await h.uc.accounts.createAccount(stranger, { userId: owner.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' })));
    const account = must(await h.uc.accounts.createAccount(owner, { userId: owner.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' }));
    assert.ok(notFound(await h.uc.accounts.updateAccount(stranger, { accountId: account.id, company: 'Hijacked' })));
    assert.ok(
      notFound(
        await h.uc.phoneActivation.requestActivation(stranger, {
          userId: owner.userId,
          accountId: account.id,
          phoneNumberActivationPageLink: `${LINK_ORIGIN}/p`,
        }),
      ),
    );
    assert.ok(notFound(await h.uc.phoneActivation.activate(stranger, { accountId: account.id, code: '123456' })));
    assert.ok(notFound(await h.uc.subscriptions.getSubscription(stranger, account.id)));
    assert.ok(notFound(await h.uc.accounts.getAccountOfUser(stranger, owner.userId)));
    assert.ok(notFound(await h.uc.accounts.updateAccount(owner, { accountId: '99999999-9999-4999-8999-999999999999', company: 'X' })));
    // The ADMIN may act on anyone's account; POWER_USER may read.
    assert.equal(must(await h.uc.accounts.updateAccount(admin, { accountId: account.id, company: 'Set by admin' })).company, 'Set by admin');
    const power = await h.user('EXTENDED_USER');
    assert.equal(must(await h.uc.accounts.getAccountOfUser(power, owner.userId)).id, account.id);
    assert.equal(must(await h.uc.subscriptions.getSubscription(power, account.id)).accountId, account.id);
    assert.ok(notFound(await h.uc.accounts.updateAccount(power, { accountId: account.id, company: 'Reader only' })));
  });

  it('updates the profile, clears fields with null, and never the plan', async () => {
    const u = await h.user('STANDARD_USER');
    const account = must(
      await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE', location: 'Ankara', industry: 'Energy' }),
    );
    const updated = must(
      await h.uc.accounts.updateAccount(u, { accountId: account.id, type: 'ORGANIZATION', location: null, profilePictureUrl: 'https://img.example/p.png' }),
    );
    assert.equal(updated.type, 'ORGANIZATION');
    assert.equal(updated.location, undefined);
    assert.equal(updated.industry, 'Energy');
    assert.equal(updated.profilePictureUrl, 'https://img.example/p.png');
    assert.ok(updated.updatedAt >= account.updatedAt);
    const plan = await h.uc.accounts.updateAccount(u, { accountId: account.id, subscriptionPlan: 'PREMIUM_YEARLY' });
    assert.ok(!plan.ok && plan.error.kind === 'validation' && plan.error.field === 'subscriptionPlan');
    for (const [input, field] of [
      [{ mobilePhoneNumber: '0532 123 45 67' }, 'mobilePhoneNumber'],
      [{ type: 'PERSON' }, 'type'],
      [{ profilePictureUrl: 'javascript:alert(1)' }, 'profilePictureUrl'],
      [{ company: 'x'.repeat(300) }, 'company'],
    ] as const) {
      const r = await h.uc.accounts.updateAccount(u, { accountId: account.id, ...input });
      assert.ok(!r.ok && r.error.kind === 'validation' && r.error.field === field, field);
    }
  });

  it('verifies the phone by SMS code: wrong codes counted, right code sets the flag', async () => {
    const u = await h.user('STANDARD_USER');
    const account = must(
      await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE', mobilePhoneNumber: '+905551112233' }),
    );
    const requested = must(
      await h.uc.phoneActivation.requestActivation(u, { userId: u.userId, accountId: account.id, phoneNumberActivationPageLink: `${LINK_ORIGIN}/phone` }),
    );
    assert.deepEqual(requested, {
      userId: u.userId,
      accountId: account.id,
      recipientPhoneNumber: '+905551112233',
      tokenExpirationEpoch: h.clock.now().getTime() + 10 * 60_000,
      smsSent: true,
    });
    const sms = h.messages.last();
    assert.equal(sms.channel, 'sms');
    assert.equal(sms.to, '+905551112233');
    const code = sms.params['code'] ?? '';
    assert.match(code, /^[0-9]{6}$/);
    const stored = await h.mongo.db.collection('accounts').findOne({ _id: account.id as never });
    assert.ok(!JSON.stringify(stored).includes(`"${code}"`), 'the code is stored hashed');

    const wrongCode = code === '000000' ? '000001' : '000000';
    const wrong = await h.uc.phoneActivation.activate(u, { accountId: account.id, code: wrongCode });
    assert.ok(!wrong.ok && wrong.error.kind === 'validation' && wrong.error.field === 'code' && /4 attempt/.test(wrong.error.message));
    const done = must(await h.uc.phoneActivation.activate(u, { accountId: account.id, code }));
    assert.equal(done.mobilePhoneNumberVerified, true);
    const twice = await h.uc.phoneActivation.activate(u, { accountId: account.id, code });
    assert.ok(!twice.ok && twice.error.kind === 'expired');
    const already = await h.uc.phoneActivation.requestActivation(u, {
      userId: u.userId,
      accountId: account.id,
      phoneNumberActivationPageLink: `${LINK_ORIGIN}/phone`,
    });
    assert.ok(!already.ok && already.error.kind === 'conflict');

    // A new number loses the verification.
    const moved = must(await h.uc.accounts.updateAccount(u, { accountId: account.id, mobilePhoneNumber: '+905559998877' }));
    assert.equal(moved.mobilePhoneNumberVerified, false);
    const same = must(await h.uc.accounts.updateAccount(u, { accountId: account.id, mobilePhoneNumber: '+905559998877', company: 'Same number' }));
    assert.equal(same.company, 'Same number');
  });

  it('burns the code after 5 wrong guesses, even guessed in parallel, and expires it after 10 minutes', async () => {
    const u = await h.user('STANDARD_USER');
    const account = must(
      await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE', mobilePhoneNumber: '+905551110000' }),
    );
    must(await h.uc.phoneActivation.requestActivation(u, { userId: u.userId, accountId: account.id, phoneNumberActivationPageLink: `${LINK_ORIGIN}/phone` }));
    const code = h.messages.last().params['code'] ?? '';
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'));
    const results = await Promise.all(guesses.map((guess) => h.uc.phoneActivation.activate(u, { accountId: account.id, code: guess })));
    assert.ok(results.filter((r) => !r.ok && r.error.kind === 'validation').length <= 5, 'at most 5 guesses were compared');
    for (let i = 0; i < 5; i++) await h.uc.phoneActivation.activate(u, { accountId: account.id, code: guesses[0] ?? '' });
    const burnt = await h.uc.phoneActivation.activate(u, { accountId: account.id, code });
    assert.ok(!burnt.ok && burnt.error.kind === 'expired', 'even the right code is refused now');

    must(await h.uc.phoneActivation.requestActivation(u, { userId: u.userId, accountId: account.id, phoneNumberActivationPageLink: `${LINK_ORIGIN}/phone` }));
    const fresh = h.messages.last().params['code'] ?? '';
    h.clock.advance(10 * 60_000 + 1);
    const late = await h.uc.phoneActivation.activate(u, { accountId: account.id, code: fresh });
    assert.ok(!late.ok && late.error.kind === 'expired');
  });

  it('reports smsSent false when the message cannot be handed over, and limits SMS per account', async () => {
    const u = await h.user('STANDARD_USER');
    const account = must(
      await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE', mobilePhoneNumber: '+905551119999' }),
    );
    const request = { userId: u.userId, accountId: account.id, phoneNumberActivationPageLink: `${LINK_ORIGIN}/phone` };
    h.messages.failNext = true;
    assert.equal(must(await h.uc.phoneActivation.requestActivation(u, request)).smsSent, false);
    for (let i = 0; i < 4; i++) must(await h.uc.phoneActivation.requestActivation(u, request));
    const limited = await h.uc.phoneActivation.requestActivation(u, request);
    assert.ok(!limited.ok && limited.error.kind === 'rate-limited' && limited.error.retryAfterSeconds > 0);
    const noPhone = await h.user('STANDARD_USER');
    const bare = must(await h.uc.accounts.createAccount(noPhone, { userId: noPhone.userId, type: 'INDIVIDUAL', subscriptionPlan: 'NONE' }));
    const missing = await h.uc.phoneActivation.requestActivation(noPhone, {
      userId: noPhone.userId,
      accountId: bare.id,
      phoneNumberActivationPageLink: `${LINK_ORIGIN}/phone`,
    });
    assert.ok(!missing.ok && missing.error.kind === 'validation' && missing.error.field === 'mobilePhoneNumber');
  });
});

describe('subscriptions and access decisions (real database)', () => {
  let h: Harness;
  let admin: Principal;
  const ankara = { lat: 39.92, lng: 32.85 };
  const izmir = { lat: 38.42, lng: 27.14 };
  before(async () => {
    h = await startHarness('subs', {
      geo: new MapGeo([
        { ...ankara, at: { country: 'TUR', region: 'Ankara' } },
        { ...izmir, at: { country: 'TUR', region: 'İzmir' } },
      ]),
    });
    admin = await h.user('ADMIN');
  });
  after(async () => {
    await h?.close();
  });

  it('lets only an ADMIN set plan, expiry, geography and limits; the owner reads them', async () => {
    const u = await h.user('API_USER');
    const account = must(await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'ORGANIZATION', subscriptionPlan: 'NONE' }));
    const self = await h.uc.subscriptions.updateSubscription(u, { accountId: account.id, subscriptionPlan: 'PREMIUM_YEARLY' });
    assert.ok(!self.ok && self.error.kind === 'forbidden');

    const expiresAt = h.clock.now().getTime() + 30 * 24 * 3600_000;
    const view = must(
      await h.uc.subscriptions.updateSubscription(admin, {
        accountId: account.id,
        userId: u.userId,
        subscriptionPlan: 'CUSTOM',
        expiresAt,
        geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }],
        limits: { FORECAST: { limit: 2, recurrence: 'DAILY' } },
      }),
    );
    assert.deepEqual(view, {
      accountId: account.id,
      userId: u.userId,
      subscriptionPlan: 'CUSTOM',
      expiresAt: new Date(expiresAt),
      active: true,
      geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }],
      limits: { FORECAST: { limit: 2, recurrence: 'DAILY', interval: 1 } },
      warnings: [],
    });
    assert.deepEqual(must(await h.uc.subscriptions.getSubscription(u, account.id)), { ...view, warnings: [] });
    assert.equal(must(await h.uc.userQueries.getMe(u)).account?.subscriptionPlan, 'CUSTOM');
    assert.deepEqual(
      h.accessChanges.changes.filter((c) => c.userId === u.userId).map((c) => c.change),
      ['ACCOUNT', 'SUBSCRIPTION'],
      'the gateways hear of the new account and of the subscription the ADMIN set',
    );
    // What the gateway decides from: the user and the subscription as stored now.
    const snapshot = await h.uc.accessSnapshots.snapshotOf(u.userId);
    assert.deepEqual(
      {
        role: snapshot?.role,
        status: snapshot?.status,
        accountId: snapshot?.account?.id,
        plan: snapshot?.account?.subscription.plan,
        limits: snapshot?.account?.subscription.limits,
      },
      { role: u.role, status: 'ACTIVE', accountId: account.id, plan: 'CUSTOM', limits: { FORECAST: { limit: 2, recurrence: 'DAILY', interval: 1 } } },
    );
    assert.equal(await h.uc.accessSnapshots.snapshotOf('99999999-9999-4999-8999-999999999999'), undefined);
    // The alarm-matcher asks by account: the same snapshot, of the account's owner.
    assert.deepEqual(await h.uc.accessSnapshots.snapshotOfAccount(account.id), snapshot);
    assert.equal(await h.uc.accessSnapshots.snapshotOfAccount('99999999-9999-4999-8999-999999999999'), undefined);

    const wrongOwner = await h.uc.subscriptions.updateSubscription(admin, { accountId: account.id, userId: admin.userId, subscriptionPlan: 'TRIAL' });
    assert.ok(!wrongOwner.ok && wrongOwner.error.kind === 'not-found');
    const badLimit = await h.uc.subscriptions.updateSubscription(admin, {
      accountId: account.id,
      subscriptionPlan: 'CUSTOM',
      limits: { FORECAST: { limit: 1, recurrence: 'HOURLY' } },
    });
    assert.ok(!badLimit.ok && badLimit.error.kind === 'validation' && badLimit.error.field === 'limits.FORECAST.recurrence');
    const noArea = await h.uc.subscriptions.updateSubscription(admin, {
      accountId: account.id,
      subscriptionPlan: 'CUSTOM',
      geographicBoundaries: [],
      limits: { GEO: { limit: 1, recurrence: 'DAILY' } },
    });
    assert.ok(!noArea.ok && noArea.error.kind === 'validation' && noArea.error.field === 'geographicBoundaries');
  });

  it('decides allow / 402 / 403 from the stored subscription, geography included', async () => {
    const u = await h.user('API_USER');
    const account = must(await h.uc.accounts.createAccount(u, { userId: u.userId, type: 'ORGANIZATION', subscriptionPlan: 'NONE' }));
    const principal = { ...u, accountId: account.id };
    const none = await h.uc.checkAccess.checkAccess(principal, 'getCurrentForecast', ankara);
    assert.ok(none.decision === 'deny' && none.status === 402);

    must(
      await h.uc.subscriptions.updateSubscription(admin, {
        accountId: account.id,
        subscriptionPlan: 'CUSTOM',
        geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }],
        limits: { FORECAST: { limit: 2, recurrence: 'DAILY' } },
      }),
    );
    const day = Math.floor(h.clock.now().getTime() / 86_400_000) * 86_400_000;
    assert.deepEqual(await h.uc.checkAccess.checkAccess(principal, 'getCurrentForecast', ankara), {
      decision: 'allow',
      service: 'FORECAST',
      quota: true,
      limit: { limit: 2, recurrence: 'DAILY', interval: 1 },
      window: { start: new Date(day), end: new Date(day + 86_400_000) },
      accountId: account.id,
      geographicBoundaries: [{ country: 'TUR', region: 'Ankara' }],
    });
    const outside = await h.uc.checkAccess.checkAccess(principal, 'getCurrentForecast', izmir);
    assert.ok(outside.decision === 'deny' && outside.status === 403 && outside.reason === 'outside-geography');
    assert.equal(
      outside.message,
      'The Location You Are Querying [38.42, 27.14] Is Not Within The Geographic Boundaries Allowed In Your Subscription [Türkiye, Ankara]',
    );
    const other = await h.uc.checkAccess.checkAccess(principal, 'getThunderstormPage');
    assert.ok(other.decision === 'deny' && other.reason === 'no-subscription-for-endpoint');

    // A plan renewed with defaults only: PREMIUM covers Türkiye and every service.
    must(await h.uc.subscriptions.updateSubscription(admin, { accountId: account.id, subscriptionPlan: 'PREMIUM_MONTHLY' }));
    assert.equal((await h.uc.checkAccess.checkAccess(principal, 'getCurrentForecast', izmir)).decision, 'allow');
    h.clock.advance(32 * 24 * 3600_000);
    const lapsed = await h.uc.checkAccess.checkAccess(principal, 'getCurrentForecast', izmir);
    assert.ok(lapsed.decision === 'deny' && lapsed.status === 402);
  });
});
