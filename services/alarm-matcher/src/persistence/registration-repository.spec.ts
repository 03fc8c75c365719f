import assert from 'node:assert/strict';
import type { GeometryRegistration, WeatherFilter } from '../domain/registration.js';
import { geometryRegistration, pointRegistration } from '../test-support/fixtures.js';
import { fromDocument, toDocument, type RegistrationDocument } from './registration-repository.js';

/**
 * The stored form of registrations, without a database: what is written is read back whole. The real
 * database round trip is in persistence.int.spec.ts.
 */
describe('registration documents', () => {
  /** As the driver hands a document back: plain JSON-like data, no shared references. */
  const stored = (doc: RegistrationDocument): RegistrationDocument => structuredClone(doc);

  it('stores and reads back the approach stages and the lightning approach ring', () => {
    const filter: WeatherFilter = {
      lightning: { approachRadiusM: 20_000 },
      thunderstorm: { severityThreshold: 'HIGH', approach: { leadMinutes: 15 } },
      precipitation: { intensities: ['HEAVY'], approach: { leadMinutes: 60 } },
    };
    const registration = pointRegistration(32.85, 39.92, 3_000, filter);
    const doc = toDocument(registration);
    assert.deepEqual(doc.filter, filter, 'stored in the document');
    assert.deepEqual(fromDocument(stored(doc)), registration);
  });

  it('loads a document written before the early-warning fields existed, with them absent', () => {
    // The shape an older matcher wrote: no approach, no approachRadiusM anywhere.
    const old = {
      _id: '00000000-0000-4000-9000-00000000abcd',
      areaKey: 'adm:6:1231:-',
      accountId: 'acc-old',
      recipientId: 'old-recipient',
      createdAtMs: 1,
      updatedAtMs: 2,
      version: 3,
      warnings: [],
      kind: 'GEOMETRY',
      area: { cityId: 6, districtId: 1231 },
      filter: { lightning: { peakCurrentA: 5_000 }, thunderstorm: { severityThreshold: 'LOW' }, precipitation: { intensities: ['LIGHT'] } },
    } satisfies Omit<GeometryRegistration, 'registrationId'> & { _id: string; areaKey: string };
    const registration = fromDocument(stored(old as RegistrationDocument));
    assert.equal(registration.registrationId, old._id);
    assert.ok(registration.kind === 'GEOMETRY');
    assert.equal(registration.filter.thunderstorm?.approach, undefined);
    assert.equal(registration.filter.precipitation?.approach, undefined);
    assert.equal(registration.filter.lightning?.approachRadiusM, undefined);
    assert.ok(!('areaKey' in registration), 'the area key stays in the database');
    assert.deepEqual(registration.filter, old.filter);
  });

  it('writes no member for an absent field (the driver would store undefined as null)', () => {
    const registration = geometryRegistration(1231, { thunderstorm: { severityThreshold: 'LOW', approach: undefined } });
    const filter = toDocument(registration).filter as WeatherFilter;
    assert.deepEqual(filter, { thunderstorm: { severityThreshold: 'LOW' } });
    assert.ok(!('approach' in filter.thunderstorm!));
  });
});
