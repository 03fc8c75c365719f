import assert from 'node:assert/strict';
import type { AccessSnapshot } from '@stormhook/access';
import type { LatLng } from '../../domain/registration.js';
import { DependencyUnavailableError } from '../../ports/dependency.js';
import type { GeoPort, PointResolution } from '../../ports/geo-port.js';
import { entitledOwner } from '../../test-support/fake-identity.js';
import { checkCircleInPlan, circleSamples } from './circle-in-plan.js';

const ACCOUNT = '0a0a0a0a-1111-4111-8111-0a0a0a0a0a0a';

/** İstanbul west of lng 30, Kocaeli east of it, the sea north of lat 41.2. */
const geo = {
  async resolvePoint(point: LatLng): Promise<PointResolution> {
    if (point.lat > 41.2) return { countryCode: '' };
    return { countryCode: 'TUR', city: point.lng < 30 ? { id: 34, name: 'İstanbul' } : { id: 41, name: 'Kocaeli' } };
  },
} as GeoPort;

function owners(change: (s: AccessSnapshot) => void = (s) => (s.account!.subscription.geographicBoundaries = [{ country: 'TUR', region: 'Istanbul' }])) {
  return {
    async ownerOf() {
      const snapshot = structuredClone(entitledOwner(ACCOUNT));
      change(snapshot);
      return snapshot;
    },
  };
}

describe('checkCircleInPlan', () => {
  it('looks at the centre, 16 rim points and 8 at half the radius', () => {
    const samples = circleSamples({ point: { lng: 29, lat: 41 }, radiusM: 10_000 });
    assert.equal(samples.length, 25);
    assert.ok(
      samples.some((p) => p.lng > 29.11),
      'the rim 10 km east',
    );
  });

  it('accepts a circle inside the plan region', async () => {
    assert.deepEqual(await checkCircleInPlan({ point: { lng: 29.5, lat: 41.0 }, radiusM: 20_000 }, ACCOUNT, { geo, owners: owners() }), {
      ok: true,
      value: undefined,
    });
  });

  it('rejects a circle reaching a region the plan does not cover, naming boundary.radius and the region', async () => {
    const result = await checkCircleInPlan({ point: { lng: 29.9, lat: 41.0 }, radiusM: 20_000 }, ACCOUNT, { geo, owners: owners() });
    assert.ok(!result.ok && result.error.kind === 'validation');
    assert.equal(result.error.field, 'boundary.radius');
    assert.match(
      result.error.message,
      /^boundary\.radius reaches Kocaeli \(TUR\), outside the geographic boundaries allowed in your subscription \[Türkiye, Istanbul\]/,
    );
  });

  it('accepts a circle that reaches only the sea', async () => {
    assert.equal((await checkCircleInPlan({ point: { lng: 29.5, lat: 41.15 }, radiusM: 20_000 }, ACCOUNT, { geo, owners: owners() })).ok, true);
  });

  it('lets a whole-country plan and an ADMIN owner reach any region', async () => {
    const wide = owners((s) => (s.account!.subscription.geographicBoundaries = [{ country: 'TUR' }]));
    const admin = owners((s) => {
      s.role = 'ADMIN';
      s.account!.subscription.geographicBoundaries = [];
    });
    const circle = { point: { lng: 29.9, lat: 41.0 }, radiusM: 20_000 };
    assert.equal((await checkCircleInPlan(circle, ACCOUNT, { geo, owners: wide })).ok, true);
    assert.equal((await checkCircleInPlan(circle, ACCOUNT, { geo, owners: admin })).ok, true);
  });

  it('answers unavailable when identity does not answer', async () => {
    const down = {
      async ownerOf(): Promise<AccessSnapshot | undefined> {
        throw new DependencyUnavailableError('identity', 'down');
      },
    };
    const result = await checkCircleInPlan({ point: { lng: 29.5, lat: 41.0 }, radiusM: 1_000 }, ACCOUNT, { geo, owners: down });
    assert.ok(!result.ok && result.error.kind === 'unavailable' && result.error.dependency === 'identity');
  });
});
