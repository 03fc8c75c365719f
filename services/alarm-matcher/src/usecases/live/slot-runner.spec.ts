import assert from 'node:assert/strict';
import { square } from '@stormhook/geometry/testing';
import { createLogger } from '@stormhook/logger';
import type { ForecastRegistration } from '../../domain/registration.js';
import { slotOn } from '../../forecast/slots.js';
import { Grid } from '../../geometry/grid.js';
import { ManualClock } from '../../test-support/manual-clock.js';
import { ForecastRegistrations } from '../../forecast/forecast-registrations.js';
import { LatestForecastCells } from '../../forecast/latest-cells.js';
import { MemoryLedger, MemorySlotLedger, PolygonGeo, RecordingPublisher } from '../../test-support/memory-ports.js';
import { AreaShapes } from '../index/area-shapes.js';
import { NotificationDispatcher, type DeliveryGate } from './dispatcher.js';
import { ForecastSlotRunner } from './slot-runner.js';

const DAY = Date.UTC(2030, 0, 15);
const HOUR = 3_600_000;
const LEASE = 10 * 60_000;

function forecastRegistration(id: string, overrides: Partial<ForecastRegistration> = {}): ForecastRegistration {
  return {
    registrationId: id,
    accountId: 'acc',
    recipientId: `rcp-${id}`,
    createdAtMs: 0,
    updatedAtMs: 0,
    version: 1,
    warnings: [],
    kind: 'FORECAST',
    boundary: { type: 'ADMINISTRATIVE', cityId: 6, districtId: 1231 },
    filter: { windGustThreshold: 'STRONG_WIND' },
    forecastDays: 1,
    delivery: ['MORNING'],
    resolved: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
    ...overrides,
  };
}

describe('ForecastSlotRunner', () => {
  function setup(gate?: DeliveryGate) {
    const clock = new ManualClock(DAY + 4 * HOUR);
    const alarms = new ForecastRegistrations();
    const forecasts = new LatestForecastCells();
    forecasts.apply([
      { cellId: 'in', location: [32.7, 39.7], runId: 'run', issueMs: DAY - HOUR, days: [{ dayMs: DAY, windGustMaxKmh: 70 }] },
      { cellId: 'near', location: [32.0, 39.0], runId: 'run', issueMs: DAY - HOUR, days: [{ dayMs: DAY, windGustMaxKmh: 55 }] },
    ]);
    const geo = new PolygonGeo(new Map([['DISTRICT:1231', square(32.5, 39.5, 0.5)]]));
    const slots = new MemorySlotLedger();
    const publisher = new RecordingPublisher();
    const runner = (instanceId: string) =>
      new ForecastSlotRunner({
        registrations: alarms,
        cells: forecasts,
        slots,
        shapes: new AreaShapes(geo, new Grid()),
        dispatcher: new NotificationDispatcher(new MemoryLedger(), publisher, clock, undefined, undefined, gate),
        clock,
        logger: createLogger({ service: 'spec', level: 'silent' }),
        instanceId,
        leaseMs: LEASE,
        lateAfterMs: 10 * 60_000,
        maxCellDistanceM: 50_000,
      });
    return { clock, alarms, forecasts, slots, publisher, runner };
  }

  it('reports the worst cell inside the district, and the nearest cell for a point', async () => {
    const { alarms, publisher, runner } = setup();
    alarms.upsert(forecastRegistration('district'));
    alarms.upsert(forecastRegistration('point', { boundary: { type: 'POINT', point: { lng: 32.01, lat: 39.01 } } }));
    alarms.upsert(forecastRegistration('evening', { delivery: ['EVENING'] }));
    const outcome = await runner('a').run(slotOn('MORNING', DAY));
    assert.deepEqual([outcome.evaluated, outcome.late, outcome.registrations, outcome.notifications], [true, false, 2, 2]);
    const cells = publisher.sent.map((n) => [
      n.addressee.registrationId,
      (n.payload['violations'] as Array<{ forecasts: Array<{ cellId: string }> }>)[0]!.forecasts[0]!.cellId,
    ]);
    assert.deepEqual(cells.sort(), [
      ['district', 'in'],
      ['point', 'near'],
    ]);
  });

  it('sends nothing at 04:00 to a registration whose account is suspended, and still to the others', async () => {
    const gate: DeliveryGate = { suspension: (r) => (r.accountId === 'blocked' ? { reason: 'USER_BLOCKED', sinceMs: 0 } : undefined) };
    const { alarms, publisher, runner } = setup(gate);
    alarms.upsert(forecastRegistration('kept'));
    alarms.upsert(forecastRegistration('held', { accountId: 'blocked', recipientId: 'rcp-held' }));
    await runner('a').run(slotOn('MORNING', DAY));
    assert.deepEqual(
      publisher.sent.map((n) => n.addressee.registrationId),
      ['kept'],
    );
  });

  it('leaves a slot alone while its claim is held, and takes it over once the lease ran out', async () => {
    const { clock, alarms, slots, publisher, runner } = setup();
    alarms.upsert(forecastRegistration('district'));
    const slot = slotOn('MORNING', DAY);
    // An instance claimed the slot and died before finishing.
    await slots.claim({
      claimId: slot.id,
      slotId: slot.id,
      delivery: 'MORNING',
      slotTimeMs: slot.timeMs,
      attempt: 1,
      late: false,
      owner: 'dead',
      claimedAtMs: clock.now(),
      leaseUntilMs: clock.now() + LEASE,
      status: 'running',
    });
    assert.equal((await runner('b').run(slot)).evaluated, false);
    clock.advance(LEASE + 1);
    const outcome = await runner('b').run(slot);
    assert.equal(outcome.evaluated, true);
    assert.equal(outcome.slotId, `${slot.id}#2`);
    assert.equal(outcome.late, true, 'evaluated more than 10 minutes after 04:00');
    assert.equal(publisher.sent.length, 1);
    // The takeover's notification carries the id the first attempt would have used.
    assert.equal(publisher.sent[0]!.eventId, `forecast:${slot.id}`);
    assert.equal((await runner('c').run(slot)).alreadyDone, true);
  });

  it('gives up after five attempts', async () => {
    const { clock, slots, runner } = setup();
    const slot = slotOn('MORNING', DAY);
    for (let attempt = 1; attempt <= 5; attempt++) {
      const claimId = attempt === 1 ? slot.id : `${slot.id}#${attempt}`;
      await slots.claim({
        claimId,
        slotId: slot.id,
        delivery: 'MORNING',
        slotTimeMs: slot.timeMs,
        attempt,
        late: false,
        owner: 'x',
        claimedAtMs: clock.now() + attempt,
        leaseUntilMs: 0,
        status: 'running',
      });
    }
    assert.equal((await runner('d').run(slot)).evaluated, false);
  });
});
