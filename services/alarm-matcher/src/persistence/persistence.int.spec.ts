import assert from 'node:assert/strict';
import { MongoClient, type Db } from 'mongodb';
import { testInfra, uniqueName } from '@stormhook/testing';
import type { PointRegistration } from '../domain/registration.js';
import { square } from '@stormhook/geometry/testing';
import { pointRegistration, storm } from '../test-support/fixtures.js';
import { COLLECTIONS, ensureAlarmIndexes } from './collections.js';
import { MongoForecastStore } from './forecast-store.js';
import { MongoJobLock } from './job-locks.js';
import { MongoLightningActivityStore } from './lightning-activity-store.js';
import { MongoNotificationLedger } from './notification-ledger.js';
import { MongoRegistrationRepository } from './registration-repository.js';
import { MongoSlotLedger } from './slot-ledger.js';
import { MongoTrackedStateStore } from './tracked-state-store.js';

/** The stores on the real database (FerretDB here): uniqueness under concurrency is what they are for. */
describe('alarm-matcher persistence (real database)', function () {
  this.timeout(30_000);
  let client: MongoClient;
  let db: Db;

  before(async () => {
    client = new MongoClient(testInfra().mongoUrl);
    await client.connect();
    db = client.db(uniqueName('am_persist').replace(/-/g, '_'));
    await ensureAlarmIndexes(db);
  });

  after(async () => {
    await db?.dropDatabase();
    await client?.close();
  });

  it('keeps one registration per account, kind, recipient and area even when inserted concurrently', async () => {
    const repo = new MongoRegistrationRepository(db);
    const base = pointRegistration(32.85, 39.92, 5_000, { lightning: {} }, { recipientId: 'same', accountId: 'acc-unique' });
    const copies: PointRegistration[] = Array.from({ length: 6 }, (_, i) => ({ ...base, registrationId: `${base.registrationId.slice(0, -1)}${i}` }));
    const outcomes = await Promise.all(copies.map((r) => repo.insert(r)));
    assert.equal(outcomes.filter((o) => o === 'inserted').length, 1);
    assert.equal(outcomes.filter((o) => o === 'duplicate').length, 5);
    const other = { ...base, registrationId: `${base.registrationId.slice(0, -1)}9`, circle: { ...base.circle, radiusM: 6_000 } };
    assert.equal(await repo.insert(other), 'inserted', 'another radius is another area');
    assert.equal(await repo.replace({ ...other, circle: base.circle }), 'duplicate', 'an update onto an existing area is refused');
    const page = await repo.page({ kind: 'POINT', accountId: 'acc-unique' }, 0, 10);
    assert.equal(page.total, 2);
  });

  it('stores the early-warning filter fields and still loads registrations written before them', async () => {
    const repo = new MongoRegistrationRepository(db);
    const warned = pointRegistration(
      32.85,
      39.92,
      4_000,
      {
        lightning: { approachRadiusM: 12_500 },
        thunderstorm: { severityThreshold: 'MEDIUM', approach: { leadMinutes: 20 } },
        precipitation: { intensities: ['HEAVY'], approach: { leadMinutes: 45 } },
      },
      { accountId: 'acc-approach' },
    );
    assert.equal(await repo.insert(warned), 'inserted');
    assert.deepEqual(await repo.findById(warned.registrationId), warned);
    // A document as an older matcher wrote it: no approach stage, no ring.
    const older = { _id: '00000000-0000-4000-9000-0000000a0001', areaKey: 'adm:6:1231:-', accountId: 'acc-approach', recipientId: 'older' };
    await db.collection(COLLECTIONS.registrations).insertOne({
      ...older,
      createdAtMs: 1,
      updatedAtMs: 1,
      version: 1,
      warnings: [],
      kind: 'GEOMETRY',
      area: { cityId: 6, districtId: 1231 },
      filter: { lightning: {}, thunderstorm: { severityThreshold: 'LOW' }, precipitation: { intensities: [] } },
    } as never);
    const loaded = await repo.findById(older._id);
    assert.ok(loaded?.kind === 'GEOMETRY');
    assert.deepEqual(loaded.filter, { lightning: {}, thunderstorm: { severityThreshold: 'LOW' }, precipitation: { intensities: [] } });
  });

  it('hands each notification to one claimer; a claim never published is handed out again once stale', async () => {
    const ledger = new MongoNotificationLedger(db, 5_000);
    const claim = (id: string) => ({ notificationId: id, registrationId: 'r', eventId: 'e', stage: 'start' });
    const all = (result: { fresh: string[]; retaken: string[] }) => [...result.fresh, ...result.retaken];
    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => ledger.claim([claim('ntf_a'), claim('ntf_b')], 1_000, `bat_t_${i}`)));
    assert.deepEqual(results.map((r) => all(r).length).sort(), [0, 0, 0, 0, 2]);
    await ledger.markPublished(['ntf_a'], 2_000);
    assert.deepEqual(all(await ledger.claim([claim('ntf_a'), claim('ntf_b'), claim('ntf_c')], 3_000, 'bat_t_5')), ['ntf_c'], 'b may still be in flight');
    assert.deepEqual(
      await ledger.claim([claim('ntf_a'), claim('ntf_b')], 6_000, 'bat_t_6'),
      { fresh: [], retaken: ['ntf_b'] },
      'b was abandoned: hand it out again',
    );
    await ledger.release(['ntf_b', 'ntf_c']);
    assert.equal(await ledger.isPublished('ntf_a'), true);
    assert.deepEqual(all(await ledger.claim([claim('ntf_b')], 7_000, 'bat_t_7')), ['ntf_b'], 'released claims are claimed afresh');
    assert.equal(await ledger.purgeClaimedBefore(3_500), 2, 'only ntf_a and its published mark are old enough');
  });

  it('marks a whole batch published with one document', async () => {
    const ledger = new MongoNotificationLedger(db, 5_000);
    const claim = (id: string) => ({ notificationId: id, registrationId: 'r', eventId: 'e', stage: 'start' });
    const ids = Array.from({ length: 50 }, (_, i) => `ntf_batch_${i}`);
    assert.equal((await ledger.claim(ids.map(claim), 40_000, 'bat_t_b1')).fresh.length, 50);
    await ledger.markPublished(['bat_t_b1'], 40_010);
    assert.equal(await ledger.isPublished('ntf_batch_7'), true);
    assert.deepEqual(await ledger.claim(ids.map(claim), 90_000, 'bat_t_b2'), { fresh: [], retaken: [] }, 'published long ago: never handed out again');
    assert.equal(await db.collection('notifications').countDocuments({ _id: { $regex: /^(ntf_batch_|bat_t_b1)/ } as never }), 51);
  });

  it('lets one of several claimers that find a claim abandoned at once take it over', async () => {
    const ledger = new MongoNotificationLedger(db, 5_000);
    const claim = (id: string) => ({ notificationId: id, registrationId: 'r', eventId: 'e', stage: 'start' });
    assert.deepEqual((await ledger.claim([claim('ntf_x'), claim('ntf_y')], 10_000, 'bat_t_x')).fresh, ['ntf_x', 'ntf_y']);
    // Both claims were never published (their claimer died); eight replays find them stale together.
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => ledger.claim([claim('ntf_x'), claim('ntf_y')], 16_000, `bat_t_r${i}`)));
    assert.deepEqual(
      results.flatMap((r) => r.fresh),
      [],
    );
    assert.deepEqual(results.flatMap((r) => r.retaken).sort(), ['ntf_x', 'ntf_y'], 'one takeover of each');
    assert.deepEqual(await ledger.claim([claim('ntf_x')], 17_000, 'bat_t_r8'), { fresh: [], retaken: [] }, 'taken over a moment ago');
    // The taker published them and marked them one by one (their claim names the dead batch).
    await ledger.markPublished(['ntf_x', 'ntf_y'], 17_000);
    assert.deepEqual(await ledger.claim([claim('ntf_x'), claim('ntf_y')], 60_000, 'bat_t_r9'), { fresh: [], retaken: [] }, 'published by the taker: not again');
  });

  it('hands an abandoned claim to one taker at a time: not twice across a stale-period boundary, not again while the taker publishes', async () => {
    const ledger = new MongoNotificationLedger(db, 5_000);
    const claim = (id: string) => ({ notificationId: id, registrationId: 'r', eventId: 'e', stage: 'start' });
    const retaken = (results: Array<{ retaken: string[] }>) => results.flatMap((r) => r.retaken);
    // Claimed at 10 s; the claimer died before publishing.
    await ledger.claim([claim('ntf_edge'), claim('ntf_slow')], 10_000, 'bat_t_dead');
    // Two replays find ntf_edge abandoned 1 ms either side of a multiple of the stale period (clocks
    // a little apart): a takeover keyed by the period would let both win.
    const edge = await Promise.all([ledger.claim([claim('ntf_edge')], 19_999, 'bat_t_e1'), ledger.claim([claim('ntf_edge')], 20_001, 'bat_t_e2')]);
    assert.deepEqual(retaken(edge), ['ntf_edge'], 'one takeover');
    // ntf_slow is taken over at 16 s; its taker is still publishing 4.5 s later, in the next period.
    assert.deepEqual(retaken([await ledger.claim([claim('ntf_slow')], 16_000, 'bat_t_s1')]), ['ntf_slow']);
    assert.deepEqual(retaken([await ledger.claim([claim('ntf_slow')], 20_500, 'bat_t_s2')]), [], 'the takeover is recent: its taker may be publishing');
    // The taker died too: its takeover goes stale like a claim, and one of several replays takes it over again.
    const again = await Promise.all(Array.from({ length: 4 }, (_, i) => ledger.claim([claim('ntf_slow')], 21_000 + i, `bat_t_s3${i}`)));
    assert.deepEqual(retaken(again), ['ntf_slow']);
    await ledger.markPublished(['ntf_slow'], 21_100);
    assert.deepEqual(retaken([await ledger.claim([claim('ntf_slow')], 40_000, 'bat_t_s4')]), [], 'published: never again');
  });

  it('lets one instance take a job window and a slot claim', async () => {
    const locks = [new MongoJobLock(db, 'one'), new MongoJobLock(db, 'two')];
    const taken = await Promise.all([...locks, ...locks].map((lock) => lock.acquire('sweep', 30_000, 61_000)));
    assert.equal(taken.filter(Boolean).length, 1);
    assert.equal(await locks[0]!.acquire('sweep', 30_000, 90_000), true, 'the next window is free');
    const slots = new MongoSlotLedger(db);
    const claim = {
      claimId: 's1',
      slotId: 's1',
      delivery: 'MORNING' as const,
      slotTimeMs: 0,
      attempt: 1,
      late: false,
      owner: 'x',
      claimedAtMs: 0,
      leaseUntilMs: 1,
      status: 'running' as const,
    };
    const won = await Promise.all([slots.claim(claim), slots.claim({ ...claim, owner: 'y' }), slots.claim({ ...claim, owner: 'z' })]);
    assert.equal(won.filter(Boolean).length, 1);
    await slots.finish('s1', { finishedAtMs: 5, registrations: 3, notifications: 1 });
    assert.equal((await slots.claimsOf('s1'))[0]?.status, 'done');
  });

  it('answers the latest run of each forecast cell and purges superseded runs', async () => {
    const store = new MongoForecastStore(db);
    const cell = (cellId: string, runId: string, issueMs: number, mm: number) => ({
      cellId,
      location: [32, 39] as const,
      runId,
      issueMs,
      days: [{ dayMs: 0, precipitationMm: mm }],
    });
    await store.save([cell('cell-1', 'new', 2_000, 5)], 1);
    await store.save([cell('cell-1', 'old', 1_000, 9), cell('cell-2', 'old', 1_000, 1)], 2);
    await store.save([cell('cell-1', 'new', 2_000, 7)], 3); // a revision of a stored chunk replaces it
    const all = await store.all();
    assert.deepEqual(all.map((c) => [c.cellId, c.runId, c.days[0]?.precipitationMm]).sort(), [
      ['cell-1', 'new', 7],
      ['cell-2', 'old', 1],
    ]);
    assert.equal((await store.near([32.1, 39.1], 0.5)).length, 2);
    assert.equal((await store.near([34, 39], 0.5)).length, 0);
    assert.equal(await store.newestIssueMs(), 2_000);
    assert.equal(await store.purgeIssuedBefore(1_500), 2);
    assert.deepEqual(
      (await store.all()).map((c) => c.cellId),
      ['cell-1'],
    );
  });

  it('stores lifecycle states and lightning episodes', async () => {
    const states = new MongoTrackedStateStore(db);
    const state = {
      eventId: 'tst_1',
      registrationId: 'r1',
      episode: 1,
      active: true,
      rank: 2,
      lastRevision: 1,
      expiresAtMs: 100,
      kind: 'THUNDERSTORM' as const,
      entryMs: 50,
      occurredAtMs: 1,
      updatedAtMs: 1,
    };
    const last = { kind: 'THUNDERSTORM' as const, storm: storm(square(32.8, 39.9, 0.1), []) };
    await states.saveEvent('tst_1', 'THUNDERSTORM', [state, { ...state, registrationId: 'r2', active: false }], 1, last);
    assert.deepEqual([...(await states.byEvent('tst_1')).keys()].sort(), ['r1', 'r2']);
    assert.equal((await states.byEvent('tst_1')).get('r1')?.entryMs, 50);
    assert.deepEqual((await states.expired(99, 10)).length, 0);
    // A write without a revision (the sweeper's) keeps the stored one.
    await states.saveEvent('tst_1', 'THUNDERSTORM', [state, { ...state, registrationId: 'r2', active: false }], 1);
    const expired = await states.expired(100, 10);
    assert.deepEqual(
      expired.map((e) => e.states.map((s) => s.registrationId)),
      [['r1', 'r2']],
    );
    assert.deepEqual(expired[0]?.last, JSON.parse(JSON.stringify(last)), 'the last revision comes back as stored');
    assert.equal(await states.purgeEndedBefore(2), 0, 'an active state keeps the event');
    await states.saveEvent('tst_1', 'THUNDERSTORM', [{ ...state, active: false }], 5);
    assert.equal(await states.purgeEndedBefore(6), 1);
    assert.equal((await states.byEvent('tst_1')).size, 0);
    const activity = new MongoLightningActivityStore(db);
    await activity.save([{ registrationId: 'r1', firstStrikeMs: 10, lastStrikeMs: 20 }]);
    assert.equal((await activity.quietSince(19, 10)).length, 0);
    assert.equal((await activity.quietSince(20, 10)).length, 1);
    await activity.save([{ registrationId: 'r1', firstStrikeMs: 10, lastStrikeMs: 30 }]);
    await activity.close({ registrationId: 'r1', firstStrikeMs: 10, lastStrikeMs: 20 });
    assert.equal((await activity.get(['r1'])).get('r1')?.lastStrikeMs, 30, 'a newer strike keeps the episode open');
  });
});
