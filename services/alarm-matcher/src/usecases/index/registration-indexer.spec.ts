import assert from 'node:assert/strict';
import { createLogger } from '@stormhook/logger';
import type { ForecastRegistration, Registration } from '../../domain/registration.js';
import { ForecastRegistrations } from '../../forecast/forecast-registrations.js';
import { Grid } from '../../geometry/grid.js';
import { RegistrationIndex } from '../../matching/registration-index.js';
import type { MultiPolygon } from '@stormhook/geometry';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import { areaRefKey, type AreaRef, type GeoPort } from '../../ports/geo-port.js';
import { geometryRegistration, pointRegistration } from '../../test-support/fixtures.js';
import { PolygonGeo } from '../../test-support/memory-ports.js';
import { AreaShapes } from './area-shapes.js';
import { RegistrationIndexer } from './registration-indexer.js';

function forecast(id: string, version: number, delivery: ForecastRegistration['delivery'] = ['MORNING']): ForecastRegistration {
  return {
    registrationId: id,
    accountId: 'acc',
    recipientId: `rcp-${id}`,
    createdAtMs: 0,
    updatedAtMs: version,
    version,
    warnings: [],
    kind: 'FORECAST',
    boundary: { type: 'POINT', point: { lng: 32.5, lat: 39.9 } },
    filter: { windGustThreshold: version > 1 ? 'STORM' : 'STRONG_WIND' },
    forecastDays: 1,
    delivery,
    resolved: { cityId: 6, cityName: 'Ankara', districtId: 1231, districtName: 'Çankaya' },
  };
}

describe('RegistrationIndexer with forecast alarms', () => {
  /** An indexer over `stored` (read as it is when a read starts); `hooks.afterSecond` runs while a read is between its second and third registration. */
  function setup(stored: Registration[], geo: GeoPort = new PolygonGeo(new Map())) {
    const grid = new Grid();
    const index = new RegistrationIndex(grid);
    const forecasts = new ForecastRegistrations();
    const hooks: { afterSecond?: () => Promise<void> } = {};
    let reads = 0;
    const repo = {
      async *all(): AsyncIterable<Registration> {
        reads += 1;
        for (const [i, registration] of [...stored].entries()) {
          yield registration;
          if (i === 1 && hooks.afterSecond) await hooks.afterSecond();
        }
      },
    };
    const indexer = new RegistrationIndexer(index, forecasts, new AreaShapes(geo, grid), repo, createLogger({ service: 'spec', level: 'silent' }));
    return { index, forecasts, indexer, hooks, reads: () => reads };
  }

  it('loads forecast alarms beside the real-time ones, and follows broadcasts without reading the database', async () => {
    const { index, forecasts, indexer, reads } = setup([
      forecast('f1', 1),
      forecast('f2', 1, ['EVENING']),
      pointRegistration(32.8, 39.9, 5_000, { lightning: {} }, { registrationId: 'p1' }),
    ]);
    await indexer.reconcile();
    assert.equal(reads(), 1);
    assert.deepEqual([index.size, forecasts.size], [1, 2]);
    assert.deepEqual(
      forecasts.forDelivery('MORNING').map((r) => r.registrationId),
      ['f1'],
    );

    await indexer.apply(forecast('f3', 1));
    await indexer.apply(forecast('f1', 2, ['MORNING', 'EVENING']));
    await indexer.apply(forecast('f1', 1)); // a late, older broadcast
    assert.equal(forecasts.get('f1')?.version, 2);
    assert.deepEqual(
      forecasts
        .forDelivery('EVENING')
        .map((r) => r.registrationId)
        .sort(),
      ['f1', 'f2'],
    );
    await indexer.remove('f2', 2);
    await indexer.apply(forecast('f2', 1)); // older than its removal: stays removed
    assert.deepEqual(
      forecasts.forDelivery('EVENING').map((r) => r.registrationId),
      ['f1'],
    );
    assert.deepEqual(
      forecasts
        .forDelivery('MORNING')
        .map((r) => r.registrationId)
        .sort(),
      ['f1', 'f3'],
    );
    assert.equal(reads(), 1, 'broadcasts are applied from the event alone');
  });

  it('drops at reconciliation a forecast alarm the database no longer holds (a lost broadcast)', async () => {
    const stored: Registration[] = [forecast('f1', 1), forecast('f2', 1)];
    const { forecasts, indexer } = setup(stored);
    await indexer.reconcile();
    stored.pop();
    const result = await indexer.reconcile();
    assert.equal(result.removed, 1);
    assert.deepEqual(
      forecasts.forDelivery('MORNING').map((r) => r.registrationId),
      ['f1'],
    );
  });

  it('keeps a registration added while a reconciliation was reading, and does not revive one removed meanwhile', async () => {
    const stored: Registration[] = [forecast('f1', 1), forecast('f2', 1), forecast('f3', 1), forecast('f4', 1)];
    const { forecasts, indexer, hooks } = setup(stored);
    await indexer.reconcile();
    // While the next read runs: f0 is registered (stored where the cursor has passed) and f3 removed.
    hooks.afterSecond = async () => {
      stored.unshift(forecast('f0', 1));
      await indexer.apply(forecast('f0', 1));
      stored.splice(
        stored.findIndex((r) => r.registrationId === 'f3'),
        1,
      );
      await indexer.remove('f3', 2);
    };
    const result = await indexer.reconcile();
    assert.equal(result.removed, 0, 'nothing dropped: f0 was added during the read, f3 was removed by its broadcast');
    assert.deepEqual(
      forecasts
        .forDelivery('MORNING')
        .map((r) => r.registrationId)
        .sort(),
      ['f0', 'f1', 'f2', 'f4'],
    );
  });

  it('places a geometry alarm that waited for its boundary at the next retry, without reading the database', async () => {
    const square: MultiPolygon = [
      {
        exterior: [
          [32.7, 39.8],
          [32.9, 39.8],
          [32.9, 40.0],
          [32.7, 40.0],
          [32.7, 39.8],
        ],
        holes: [],
      },
    ];
    /** Geo that does not answer until told to. */
    class FlakyGeo extends PolygonGeo {
      down = true;
      override async polygons(refs: readonly AreaRef[]): Promise<Map<string, MultiPolygon>> {
        if (this.down) throw new DependencyUnavailableError('geo', 'geo is down');
        return super.polygons(refs);
      }
    }
    const district = geometryRegistration(1231, { lightning: {} });
    const geo = new FlakyGeo(new Map([[areaRefKey({ level: 'DISTRICT', id: 1231 }), square]]));
    const { index, indexer, reads } = setup([district], geo);
    await indexer.reconcile();
    assert.equal(indexer.pendingCount, 1);
    assert.equal(index.size, 0);
    assert.equal(await indexer.retryPending(), 1, 'geo still down: it keeps waiting');
    geo.down = false;
    assert.equal(await indexer.retryPending(), 0);
    assert.equal(index.size, 1);
    assert.equal(reads(), 1, 'the retries read nothing from the database');
  });
});
