import assert from 'node:assert/strict';
import { createCustomer, type Customer } from './support/customer.js';
import { e2eStack, type E2eStack } from './support/e2e-stack.js';
import { assertError } from './support/errors.js';
import { CANKAYA, TURKALI } from './support/places.js';

const ATTRIBUTION =
  "© OpenStreetMap contributors (ODbL 1.0); boundaries via geoBoundaries (www.geoboundaries.org); neighbourhoods: Who's On First (CC0); Northern Cyprus outline: Made with Natural Earth";

interface Point {
  lng: number;
  lat: number;
}

function assertClosedRing(ring: Point[], what: string): void {
  assert.ok(ring.length >= 4, `${what}: a ring has at least 4 positions`);
  assert.deepEqual(ring[0], ring.at(-1), `${what}: the ring is closed`);
  for (const p of ring) assert.ok(Math.abs(p.lng) <= 180 && Math.abs(p.lat) <= 90, `${what}: ${JSON.stringify(p)} is a WGS 84 position`);
}

/** interface.md 4.9 to 4.12 over the boundaries geo imports at start. */
describe('e2e: administrative boundaries', function () {
  this.timeout(60_000);
  let stack: E2eStack;
  let customer: Customer;

  before(async function () {
    this.timeout(300_000);
    stack = await e2eStack();
    customer = await createCustomer(stack.api, await stack.adminToken(), { limits: { geo: 100 } });
  });

  it('lists the 81 provinces with closed ring polygons and the data attribution (4.9)', async () => {
    const answer = await stack.api.expect(200, 'GET', '/v1/alarms/geometries/cities', { token: customer.token });
    assert.equal(answer.headers.get('x-data-attribution'), ATTRIBUTION);
    assert.equal(answer.body.length, 81);
    const ankara = answer.body.find((c: { id: number }) => c.id === 6);
    assert.equal(ankara.name, 'Ankara');
    assert.equal(ankara.licensePlateCode, 6);
    assertClosedRing(ankara.polygon.exterior, 'Ankara');
  });

  it('answers a neighbourhood with its district and city, each with a polygon (4.10)', async () => {
    const answer = await stack.api.expect(200, 'GET', `/v1/alarms/geometries/neighborhood/${TURKALI.id}`, { token: customer.token });
    assert.equal(answer.body.name, TURKALI.name);
    assert.equal(answer.body.district.name, TURKALI.district);
    assert.equal(answer.body.district.city.name, 'İstanbul');
    assertClosedRing(answer.body.polygon.exterior, 'neighbourhood');
    assertClosedRing(answer.body.district.polygon.exterior, 'district');
    assertClosedRing(answer.body.district.city.polygon.exterior, 'city');
  });

  it('answers a district in multi form, lighter with simplifyTolerance (4.11), and 404 for an unknown one', async () => {
    const full = await stack.api.expect(200, 'GET', `/v1/alarms/forecasts/district/${CANKAYA.districtId}`, { token: customer.token });
    assert.equal(full.body.name, CANKAYA.name);
    assert.equal(full.body.city.id, CANKAYA.cityId);
    assert.equal(full.body.city.name, 'Ankara');
    assert.ok(full.body.geometry.polygons.length >= 1);
    for (const polygon of full.body.geometry.polygons) assertClosedRing(polygon.exterior, 'Çankaya');
    const simplified = await stack.api.expect(200, 'GET', `/v1/alarms/forecasts/district/${CANKAYA.districtId}?simplifyTolerance=500`, {
      token: customer.token,
    });
    assert.ok(simplified.text.length < full.text.length / 2, `simplified ${simplified.text.length} bytes, full ${full.text.length}`);
    assertError(await stack.api.call('GET', '/v1/alarms/forecasts/district/999999', { token: customer.token }), 404, '/v1/alarms/forecasts/district/999999');
  });

  it('lists the cities of TUR and CTR (4.12), CTR without a licence plate code, and names a bad country', async () => {
    const tur = await stack.api.expect(200, 'GET', '/v1/alarms/forecasts/TUR/cities', { token: customer.token });
    assert.equal(tur.body.length, 81);
    assert.ok(tur.body.every((c: { geometry: { polygons: unknown[] } }) => c.geometry.polygons.length > 0));
    // The lists answer the cities the plan covers: CTR's for a CTR plan, none for this TUR one.
    const cyprus = await createCustomer(stack.api, await stack.adminToken(), { geoBoundary: { country: 'CTR' }, limits: { geo: 100 } });
    const ctr = await stack.api.expect(200, 'GET', '/v1/alarms/forecasts/CTR/cities', { token: cyprus.token });
    assert.equal(ctr.body.length, 1);
    assert.equal(ctr.body[0].licensePlateCode, null);
    assert.deepEqual((await stack.api.expect(200, 'GET', '/v1/alarms/forecasts/CTR/cities', { token: customer.token })).body, []);
    assert.match(assertError(await stack.api.call('GET', '/v1/alarms/forecasts/XYZ/cities', { token: customer.token }), 400).message, /countryCode/);
  });
});
