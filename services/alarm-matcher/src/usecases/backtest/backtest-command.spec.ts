import assert from 'node:assert/strict';
import type { AccessSnapshot } from '@stormhook/access';
import type { Caller } from '../../domain/caller.js';
import type { RegistrationDraft } from '../../domain/draft.js';
import type { AlarmError, Result } from '../../domain/errors.js';
import type { LatLng, Registration } from '../../domain/registration.js';
import { BACKTEST_WEBHOOK_WARNING } from '../../domain/validate-draft.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import type { ForecastStore } from '../../ports/forecast-store.js';
import type { GeoPort, PointResolution } from '../../ports/geo-port.js';
import { entitledOwner } from '../../test-support/fake-identity.js';
import { BacktestCommand, checkWindow, CLOCK_SKEW_MS, MAX_LOOKBACK_MS, type BacktestWindow } from './backtest-command.js';
import type { BacktestInput, BacktestOutcome, BacktestRunner } from './backtest-outcome.js';

const ACCOUNT = '0a0a0a0a-1111-4111-8111-0a0a0a0a0a0a';
const DRAFT_ID = 'd0d0d0d0-2222-4222-8222-d0d0d0d0d0d0';
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const CALLER: Caller = { userId: 'u-1', accountId: ACCOUNT, role: 'API_USER' };
const STORED_ID = '6f1c2b7a-3d4e-4f5a-8b9c-0d1e2f3a4b5c';
const FOREIGN_ID = '7e2d3c8b-4e5f-4a6b-9c0d-1e2f3a4b5c6d';
const POINT_ID = '8f3e4d9c-5f6a-4b7c-8d1e-2f3a4b5c6d7e';

/** The caller's stored geometry alarm and another account's, as the repository holds them. */
const stored = new Map<string, Pick<Registration, 'registrationId' | 'accountId' | 'kind'>>([
  [STORED_ID, { registrationId: STORED_ID, accountId: ACCOUNT, kind: 'GEOMETRY' }],
  [FOREIGN_ID, { registrationId: FOREIGN_ID, accountId: '0b0b0b0b-1111-4111-8111-0b0b0b0b0b0b', kind: 'GEOMETRY' }],
  [POINT_ID, { registrationId: POINT_ID, accountId: ACCOUNT, kind: 'POINT' }],
]);
const repo = {
  async findById(registrationId: string) {
    return stored.get(registrationId) as Registration | undefined;
  },
};

/** Ankara (6) with Çankaya (1231); İstanbul west of lng 30 and Kocaeli east of it; the sea north of lat 41.2. */
const geo = {
  async city(id: number) {
    return id === 6 ? { id: 6, name: 'Ankara' } : undefined;
  },
  async district(id: number) {
    return id === 1231 ? { id: 1231, name: 'Çankaya', city: { id: 6, name: 'Ankara' } } : undefined;
  },
  async neighbourhood() {
    return undefined;
  },
  async resolvePoint(point: LatLng): Promise<PointResolution> {
    if (point.lat > 41.2) return { countryCode: '' };
    if (point.lat < 40.5) return { countryCode: 'TUR', city: { id: 6, name: 'Ankara' }, district: { id: 1231, name: 'Çankaya' } };
    return { countryCode: 'TUR', city: point.lng < 30 ? { id: 34, name: 'İstanbul' } : { id: 41, name: 'Kocaeli' } };
  },
} as unknown as GeoPort;

const forecasts = {
  async near() {
    return [];
  },
} as unknown as ForecastStore;

/** A plan covering İstanbul only. */
const owners = {
  async ownerOf(accountId: string): Promise<AccessSnapshot> {
    const snapshot = structuredClone(entitledOwner(accountId));
    snapshot.account!.subscription.geographicBoundaries = [{ country: 'TUR', region: 'Istanbul' }];
    return snapshot;
  },
};

/** Records what it is asked to run and answers an outcome of its own window. */
class RecordingRunner implements BacktestRunner {
  readonly inputs: BacktestInput[] = [];
  constructor(private readonly answer: (input: BacktestInput) => Promise<BacktestOutcome> = async (input) => outcomeOf(input)) {}
  run(input: BacktestInput): Promise<BacktestOutcome> {
    this.inputs.push(input);
    return this.answer(input);
  }
}

function outcomeOf(input: BacktestInput, warnings: string[] = []): BacktestOutcome {
  return { fromMs: input.fromMs, toMs: input.toMs, callbacks: 0, days: [], byType: [], samples: [], coverage: [], warnings };
}

function commandWith(runner: BacktestRunner, geoPort: GeoPort = geo): BacktestCommand {
  return new BacktestCommand({
    geo: geoPort,
    forecasts,
    owners,
    maxCellDistanceM: 50_000,
    clock: { now: () => NOW },
    newId: () => DRAFT_ID,
    repo,
    runner,
  });
}

function geometryDraft(overrides: Partial<RegistrationDraft> = {}): RegistrationDraft {
  return {
    kind: 'GEOMETRY',
    registrationId: '',
    recipientId: 'field-7',
    geometryBoundary: { cityId: 6, districtId: 1231 },
    weatherFilter: { lightning: { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: 10_000 } },
    forecastDays: 0,
    delivery: [],
    ...overrides,
  };
}

const lastWeek: BacktestWindow = { fromMs: NOW - 7 * DAY, toMs: NOW - DAY };

function errorOf<T>(result: Result<T>): AlarmError {
  assert.ok(!result.ok, 'expected a failure');
  return result.error;
}

function fieldOf<T>(result: Result<T>): string {
  const error = errorOf(result);
  assert.equal(error.kind, 'validation');
  return (error as { field: string }).field;
}

describe('BacktestCommand', () => {
  it('runs a draft without a webhook as a registration built like register, under a fresh id, over the window asked for', async () => {
    const runner = new RecordingRunner();
    const result = await commandWith(runner).run(CALLER, geometryDraft(), lastWeek);
    assert.ok(result.ok);
    assert.equal(runner.inputs.length, 1);
    const input = runner.inputs[0]!;
    assert.deepEqual({ fromMs: input.fromMs, toMs: input.toMs }, lastWeek);
    assert.equal(input.registration.registrationId, DRAFT_ID);
    assert.equal(input.registration.accountId, ACCOUNT);
    assert.equal(input.registration.recipientId, 'field-7');
    assert.equal(input.registration.kind, 'GEOMETRY');
    if (input.registration.kind !== 'GEOMETRY') return;
    assert.deepEqual(input.registration.area, { cityId: 6, districtId: 1231 });
    assert.deepEqual(input.registration.filter.lightning, { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: 10_000 });
    assert.deepEqual(result.value.warnings, []);
  });

  it('accepts a webhook, checks its shape, never uses it, and says so', async () => {
    const runner = new RecordingRunner(async (input) => outcomeOf(input, ['history retained from 2026-10-30']));
    const sent = await commandWith(runner).run(CALLER, geometryDraft({ webhook: { accountId: ACCOUNT } }), lastWeek);
    assert.ok(sent.ok);
    assert.deepEqual(sent.value.warnings, [BACKTEST_WEBHOOK_WARNING, 'history retained from 2026-10-30'], "the draft's warnings first, then the runner's");
    assert.equal(fieldOf(await commandWith(runner).run(CALLER, geometryDraft({ webhook: { accountId: 'not-a-uuid' } }), lastWeek)), 'webhook.accountId');
    assert.equal(runner.inputs.length, 1, 'a malformed webhook is refused before anything runs');
  });

  it("runs under the id and account of the caller's registration it names, so its ids are the live path's", async () => {
    const runner = new RecordingRunner();
    const result = await commandWith(runner).run(CALLER, geometryDraft({ registrationId: STORED_ID }), lastWeek);
    assert.ok(result.ok);
    assert.equal(runner.inputs[0]?.registration.registrationId, STORED_ID);
    assert.equal(runner.inputs[0]?.registration.accountId, ACCOUNT);
  });

  it('answers not found for a named registration that is unknown, of another account or of another kind, and runs nothing', async () => {
    const runner = new RecordingRunner();
    for (const registrationId of ['9a9a9a9a-1111-4111-8111-9a9a9a9a9a9a', FOREIGN_ID, POINT_ID]) {
      const result = await commandWith(runner).run(CALLER, geometryDraft({ registrationId }), lastWeek);
      assert.equal(errorOf(result).kind, 'not-found', registrationId);
    }
    assert.equal(runner.inputs.length, 0);
  });

  it('refuses a registrationId that is not a UUID, naming it', async () => {
    assert.equal(fieldOf(await commandWith(new RecordingRunner()).run(CALLER, geometryDraft({ registrationId: 'nope' }), lastWeek)), 'registrationId');
  });

  it('keeps the warnings the runner repeats from the registration once', async () => {
    const runner = new RecordingRunner(async (input) => outcomeOf(input, [...input.registration.warnings, 'coverage gap']));
    const result = await commandWith(runner).run(CALLER, geometryDraft({ webhook: { accountId: ACCOUNT } }), lastWeek);
    assert.ok(result.ok);
    assert.deepEqual(result.value.warnings, [BACKTEST_WEBHOOK_WARNING, 'coverage gap']);
  });

  it('needs an account, as register does', async () => {
    const runner = new RecordingRunner();
    const error = errorOf(await commandWith(runner).run({ userId: 'u-2', role: 'API_USER' }, geometryDraft(), lastWeek));
    assert.equal(error.kind, 'precondition');
    assert.equal(runner.inputs.length, 0);
  });

  it("refuses the draft's fields as register does, naming them, before the window", async () => {
    const runner = new RecordingRunner();
    const command = commandWith(runner);
    assert.equal(fieldOf(await command.run(CALLER, geometryDraft({ recipientId: ' ' }), lastWeek)), 'recipientId');
    assert.equal(fieldOf(await command.run(CALLER, geometryDraft({ weatherFilter: { lightning: { type: 'BALL' } } }), lastWeek)), 'filter.lightning.type');
    assert.equal(fieldOf(await command.run(CALLER, geometryDraft({ recipientId: '' }), { fromMs: NOW, toMs: NOW - DAY })), 'recipientId');
    assert.equal(runner.inputs.length, 0);
  });

  it('checks the boundary against geo as register does', async () => {
    const runner = new RecordingRunner();
    const command = commandWith(runner);
    assert.equal(fieldOf(await command.run(CALLER, geometryDraft({ geometryBoundary: { cityId: 99 } }), lastWeek)), 'boundary.cityId');
    assert.equal(fieldOf(await command.run(CALLER, geometryDraft({ geometryBoundary: { cityId: 6, districtId: 7 } }), lastWeek)), 'boundary.districtId');
    assert.equal(runner.inputs.length, 0);
  });

  it("applies the plan's geography to a point alarm's circle, as register does", async () => {
    const runner = new RecordingRunner();
    const point = (lng: number, radiusM: number): RegistrationDraft =>
      geometryDraft({ kind: 'POINT', geometryBoundary: undefined, pointBoundary: { point: { lng, lat: 41.0 }, radiusM } });
    assert.equal((await commandWith(runner).run(CALLER, point(29.5, 10_000), lastWeek)).ok, true, 'inside İstanbul');
    assert.equal(fieldOf(await commandWith(runner).run(CALLER, point(29.9, 20_000), lastWeek)), 'boundary.radius', 'reaching Kocaeli');
    assert.equal(runner.inputs.length, 1);
  });

  it('resolves a POINT forecast boundary to its district, as register does', async () => {
    const runner = new RecordingRunner();
    const draft: RegistrationDraft = {
      kind: 'FORECAST',
      registrationId: '',
      recipientId: 'farm-1',
      forecastBoundary: { point: { lng: 32.86, lat: 39.93 } },
      forecastFilter: { precipitationThreshold: 'HEAVY' },
      forecastDays: 3,
      delivery: ['MORNING'],
    };
    const result = await commandWith(runner).run(CALLER, draft, lastWeek);
    assert.ok(result.ok, JSON.stringify(result));
    const registration = runner.inputs[0]?.registration;
    assert.equal(registration?.kind, 'FORECAST');
    if (registration?.kind !== 'FORECAST') return;
    assert.deepEqual(registration.resolved, { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' });
  });

  it('answers 503 naming the dependency when geo or the history does not answer', async () => {
    const down = { ...geo, city: async () => Promise.reject(new DependencyUnavailableError('geo', 'down')) } as GeoPort;
    const geoError = errorOf(await commandWith(new RecordingRunner(), down).run(CALLER, geometryDraft(), lastWeek));
    assert.ok(geoError.kind === 'unavailable');
    assert.equal(geoError.dependency, 'geo');
    const historyDown = new RecordingRunner(async () => Promise.reject(new DependencyUnavailableError('query', 'ReadHistory timed out')));
    const error = errorOf(await commandWith(historyDown).run(CALLER, geometryDraft(), lastWeek));
    assert.ok(error.kind === 'unavailable');
    assert.equal(error.dependency, 'query');
    assert.match(error.message, /weather history service is unavailable/);
  });

  it('lets a failure of its own through: only an unreachable dependency is an expected outcome', async () => {
    const broken = new RecordingRunner(async () => Promise.reject(new Error('bug')));
    await assert.rejects(commandWith(broken).run(CALLER, geometryDraft(), lastWeek), /bug/);
  });

  describe('the window', () => {
    it('refuses each bad window, naming the field, before geo or the runner is asked', async () => {
      const runner = new RecordingRunner();
      const command = commandWith(runner);
      const field = async (window: BacktestWindow) => fieldOf(await command.run(CALLER, geometryDraft(), window));
      assert.equal(await field({ fromMs: 1.5, toMs: NOW }), 'from');
      assert.equal(await field({ fromMs: NOW - DAY, toMs: Number.NaN }), 'to');
      assert.equal(await field({ fromMs: NOW - DAY, toMs: NOW + CLOCK_SKEW_MS + 1 }), 'to');
      assert.equal(await field({ fromMs: NOW - DAY, toMs: NOW - 2 * DAY }), 'from');
      assert.equal(await field({ fromMs: NOW - DAY, toMs: NOW - DAY }), 'from');
      assert.equal(await field({ fromMs: NOW - MAX_LOOKBACK_MS - CLOCK_SKEW_MS - 1, toMs: NOW }), 'from');
      assert.equal(runner.inputs.length, 0);
    });

    it('says what is wrong in the message, with the times', () => {
      const future = errorOf(checkWindow({ fromMs: NOW - DAY, toMs: NOW + HOUR }, NOW));
      assert.equal(future.message, 'to must not be in the future (it is 2026-11-28T13:00:00.000Z, now is 2026-11-28T12:00:00.000Z)');
      const old = errorOf(checkWindow({ fromMs: NOW - 31 * DAY, toMs: NOW }, NOW));
      assert.equal(old.message, 'from must be at most 30 days before now (it is 2026-10-28T12:00:00.000Z; the earliest start is 2026-10-29T12:00:00.000Z)');
    });

    it('clips ends that lie within the clock skew of now and of 30 days ago, and runs the clipped window', async () => {
      const runner = new RecordingRunner();
      const asked = { fromMs: NOW - MAX_LOOKBACK_MS - CLOCK_SKEW_MS, toMs: NOW + CLOCK_SKEW_MS };
      const result = await commandWith(runner).run(CALLER, geometryDraft(), asked);
      assert.ok(result.ok);
      assert.deepEqual({ fromMs: runner.inputs[0]?.fromMs, toMs: runner.inputs[0]?.toMs }, { fromMs: NOW - MAX_LOOKBACK_MS, toMs: NOW });
      assert.deepEqual({ fromMs: result.value.fromMs, toMs: result.value.toMs }, { fromMs: NOW - MAX_LOOKBACK_MS, toMs: NOW });
    });

    it('accepts exactly 30 days up to now, unclipped', () => {
      assert.deepEqual(checkWindow({ fromMs: NOW - MAX_LOOKBACK_MS, toMs: NOW }, NOW), { ok: true, value: { fromMs: NOW - MAX_LOOKBACK_MS, toMs: NOW } });
    });
  });
});
