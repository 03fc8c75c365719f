import assert from 'node:assert/strict';
import { parseBBox, parseKinds } from './stream-query.js';

describe('stream query parameters', () => {
  it('reads kinds in catalogue order, every kind when absent', () => {
    assert.deepEqual(parseKinds(undefined), { ok: true, value: ['lightning', 'thunderstorm', 'precipitation'] });
    assert.deepEqual(parseKinds('precipitation,lightning,lightning'), { ok: true, value: ['lightning', 'precipitation'] });
    const bad = parseKinds('lightning,hail');
    assert.equal(bad.ok, false);
    assert.match(bad.ok ? '' : bad.message, /^kinds .*hail/);
  });

  it('reads a box and names what is wrong with a bad one', () => {
    assert.deepEqual(parseBBox('32.5,39.7,33.2,40.1'), { ok: true, value: { minLng: 32.5, minLat: 39.7, maxLng: 33.2, maxLat: 40.1 } });
    assert.deepEqual(parseBBox(undefined), { ok: true, value: undefined });
    for (const [raw, message] of [
      ['33.2,39.7,32.5,40.1', /^bbox minLng/],
      ['32.5,40.1,33.2,39.7', /^bbox minLat/],
      ['190,39.7,191,40.1', /^bbox longitudes/],
      ['32.5,-95,33.2,40.1', /^bbox latitudes/],
      ['32.5,39.7,33.2', /^bbox must be/],
    ] as const) {
      const parsed = parseBBox(raw);
      assert.equal(parsed.ok, false, raw);
      assert.match(parsed.ok ? '' : parsed.message, message);
    }
  });
});
