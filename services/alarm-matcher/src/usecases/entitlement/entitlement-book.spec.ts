import assert from 'node:assert/strict';
import type { AccessSnapshot, ResolvedLocation } from '@stormhook/access';
import { createLogger } from '@stormhook/logger';
import type { Registration } from '../../domain/registration.js';
import { entitledOwner, FakeIdentity } from '../../test-support/fake-identity.js';
import { geometryRegistration, pointRegistration } from '../../test-support/fixtures.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { MemoryLedger, RecordingPublisher } from '../../test-support/memory-ports.js';
import { NotificationDispatcher } from '../live/dispatcher.js';
import { EntitlementBook, type RegistrationRef } from './entitlement-book.js';
import { placeResolver } from './registration-place.js';

const ACCOUNT = '0a0a0a0a-1111-4111-8111-0a0a0a0a0a0a';
const T0 = Date.parse('2026-11-28T04:00:00Z');
const ISTANBUL: ResolvedLocation = { country: 'TUR', region: 'İstanbul' };

function owner(change: (snapshot: AccessSnapshot) => void = () => undefined): AccessSnapshot {
  const snapshot = structuredClone(entitledOwner(ACCOUNT));
  change(snapshot);
  return snapshot;
}

function setup(place: ResolvedLocation | undefined = ISTANBUL) {
  const clock = new ManualClock(T0);
  const identity = new FakeIdentity();
  const registration = pointRegistration(29.0, 41.0, 5_000, { lightning: {} }, { accountId: ACCOUNT });
  const held = new Map<string, Registration>([[registration.registrationId, registration]]);
  const book = new EntitlementBook({
    source: identity,
    registrations: { get: (id) => held.get(id), ids: () => held.keys() },
    placeOf: async () => place,
    clock,
    logger: createLogger({ service: 'entitlement-spec', level: 'silent' }),
  });
  const ref = { registrationId: registration.registrationId, accountId: ACCOUNT, kind: 'POINT' as const };
  return { clock, identity, book, ref, held, registration };
}

describe('EntitlementBook', () => {
  it('delivers for an account not read yet, reads it in the background, then decides from memory', async () => {
    const { identity, book, ref } = setup();
    identity.set(
      ACCOUNT,
      owner((s) => (s.status = 'BLOCKED')),
    );
    assert.equal(book.suspension(ref), undefined, 'unknown: as before the book existed');
    await book.refresh();
    assert.deepEqual(book.suspension(ref), { reason: 'USER_BLOCKED', sinceMs: T0 });
    const reads = identity.reads;
    for (let i = 0; i < 1_000; i++) book.suspension(ref);
    assert.equal(identity.reads, reads, 'no identity call per decision');
  });

  it('suspends on a user change and resumes on the next one', async () => {
    const { clock, identity, book, ref } = setup();
    await book.refresh();
    assert.equal(book.suspension(ref), undefined);
    clock.advance(1_000);
    identity.set(
      ACCOUNT,
      owner((s) => (s.status = 'DELETED')),
    );
    await book.userChanged(`${ACCOUNT.slice(0, 8)}-user`);
    assert.deepEqual(book.suspension(ref), { reason: 'USER_DELETED', sinceMs: T0 + 1_000 });
    identity.set(ACCOUNT, null);
    await book.userChanged(`${ACCOUNT.slice(0, 8)}-user`);
    assert.equal(book.suspension(ref)?.reason, 'OWNER_NOT_FOUND');
    identity.set(ACCOUNT, owner());
    await book.refresh();
    assert.equal(book.suspension(ref), undefined, 'resumed');
  });

  it('ignores changes of users it holds no registration for', async () => {
    const { identity, book } = setup();
    await book.refresh();
    const reads = identity.reads;
    await book.userChanged('someone-else');
    assert.equal(identity.reads, reads);
  });

  it('suspends when the plan expires, with no event, from the expiry on', async () => {
    const { clock, identity, book, ref } = setup();
    const expiresAt = new Date(T0 + 60_000);
    identity.set(
      ACCOUNT,
      owner((s) => (s.account!.subscription.expiresAt = expiresAt)),
    );
    await book.refresh();
    assert.equal(book.suspension(ref), undefined);
    clock.set(expiresAt.getTime() - 1);
    assert.equal(book.suspension(ref), undefined);
    clock.set(expiresAt.getTime());
    assert.deepEqual(book.suspension(ref), { reason: 'SUBSCRIPTION_EXPIRED', sinceMs: expiresAt.getTime() });
  });

  it('suspends a registration outside a narrowed plan, keeps its since across refreshes, resumes when widened', async () => {
    const { clock, identity, book, ref } = setup();
    identity.set(
      ACCOUNT,
      owner((s) => (s.account!.subscription.geographicBoundaries = [{ country: 'TUR', region: 'Ankara' }])),
    );
    await book.refresh();
    assert.equal(book.suspension(ref), undefined, 'the place is not known yet: geography not judged');
    await book.locateAll();
    assert.deepEqual(book.suspension(ref), { reason: 'OUTSIDE_GEOGRAPHIC_BOUNDARIES', sinceMs: T0 });
    clock.advance(5 * 60_000);
    await book.refresh();
    assert.deepEqual(book.suspension(ref), { reason: 'OUTSIDE_GEOGRAPHIC_BOUNDARIES', sinceMs: T0 }, 'the same suspension, not a new one');
    identity.set(
      ACCOUNT,
      owner((s) => (s.account!.subscription.geographicBoundaries = [{ country: 'TUR', region: 'Istanbul' }])),
    );
    await book.refresh();
    assert.equal(book.suspension(ref), undefined);
  });

  it('keeps what it held when identity does not answer', async () => {
    const { identity, book, ref } = setup();
    identity.set(
      ACCOUNT,
      owner((s) => (s.status = 'BLOCKED')),
    );
    await book.refresh();
    identity.ownerOf = async () => {
      throw new Error('identity down');
    };
    assert.deepEqual(await book.refresh(), { accounts: 1, failed: 1 });
    assert.equal(book.suspension(ref)?.reason, 'USER_BLOCKED');
  });

  it('after a failed read leaves the account to the refresh for a while instead of calling identity per notification', async () => {
    const { clock, identity, book, ref } = setup();
    let calls = 0;
    identity.ownerOf = async () => {
      calls++;
      throw new Error('identity down');
    };
    assert.equal(book.suspension(ref), undefined, 'not read yet: entitled, read in the background');
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls, 1);
    for (let i = 0; i < 1_000; i++) assert.equal(book.suspension(ref), undefined);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls, 1, 'no read per notification after a failure');
    clock.advance(30_000);
    book.suspension(ref);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(calls, 2, 'tried again once the back-off passed');
    identity.ownerOf = async () => owner((s) => (s.status = 'BLOCKED'));
    assert.deepEqual(await book.refresh(), { accounts: 1, failed: 0 }, 'the refresh reads it regardless');
    assert.equal(book.suspension(ref)?.reason, 'USER_BLOCKED');
  });

  it('holds back at the dispatcher every notification of a suspended registration, and only those', async () => {
    const { identity, book, ref, registration } = setup();
    identity.set(
      ACCOUNT,
      owner((s) => (s.account!.subscription.plan = 'NONE')),
    );
    await book.refresh();
    const publisher = new RecordingPublisher();
    const dispatcher = new NotificationDispatcher(new MemoryLedger(), publisher, new ManualClock(T0), undefined, undefined, book);
    const note = (id: string, addressee: RegistrationRef) => ({
      notificationId: id,
      addressee: { ...addressee, recipientId: registration.recipientId },
      eventKind: 'LIGHTNING' as const,
      phase: 'START' as const,
      eventId: 'e',
      stage: 'strike',
      occurredAtMs: T0,
      payload: { id },
    });
    const other: RegistrationRef = { registrationId: 'other', accountId: '0b0b0b0b-2222-4222-8222-0b0b0b0b0b0b', kind: 'GEOMETRY' };
    book.suspension(other); // not read yet: read in the background, entitled by default
    await book.refresh();
    const sent = await dispatcher.dispatch([note('n1', ref), note('n2', other)]);
    assert.deepEqual(
      sent.map((n) => n.notificationId),
      ['n2'],
    );
    assert.deepEqual(
      publisher.sent.map((n) => n.notificationId),
      ['n2'],
    );
  });

  it('resolves each city once for all the registrations that name it', async () => {
    const calls: number[] = [];
    const geo = {
      city: async (id: number) => (calls.push(id), { id, name: 'Ankara', countryCode: 'TUR' }),
      resolvePoint: async () => ({ countryCode: '' }),
    };
    const place = placeResolver(geo);
    const a = geometryRegistration(1231, { lightning: {} }, { area: { cityId: 6, districtId: 1231 } });
    const b = geometryRegistration(1232, { lightning: {} }, { area: { cityId: 6, districtId: 1232 } });
    assert.deepEqual(await Promise.all([place(a), place(b)]), [
      { country: 'TUR', region: 'Ankara' },
      { country: 'TUR', region: 'Ankara' },
    ]);
    assert.deepEqual(calls, [6]);
  });
});
