import assert from 'node:assert/strict';
import { NOW, square, thunderstorm } from '../test-support/feed-fixtures.js';
import { signedArea } from './geo/rings.js';
import { DEFAULT_RULES } from './rules.js';
import { validateThunderstorm } from './validate-thunderstorm.js';

describe('validateThunderstorm', () => {
  it('normalises a cell: bbox over cell and threat polygon, key from the centroid', () => {
    const result = validateThunderstorm(thunderstorm(), NOW, DEFAULT_RULES);
    assert.ok(result.ok);
    const [event] = result.value.events;
    assert.equal(event!.eventId, 'tst_EAF202506151200001');
    assert.equal(event!.areaKey, 'sxp');
    assert.equal(event!.severity, 'THUNDERSTORM_SEVERITY_MEDIUM');
    const expected = { minLng: 32.6, minLat: 39.78, maxLng: 32.9, maxLat: 40.08 };
    for (const [side, value] of Object.entries(expected)) {
      assert.ok(Math.abs(event!.bbox![side as keyof typeof expected] - value) < 1e-9, `bbox.${side}`);
    }
    assert.equal(event!.meta!.speedKmh, 38.9);
    assert.equal(result.value.eventTimeEpochMs, NOW + 1_800_000);
  });

  it('converts speeds to km/h and fills in a missing flash total', () => {
    const base = thunderstorm();
    const result = validateThunderstorm(
      thunderstorm({
        speedUnit: 'SPEED_UNIT_MILES_PER_HOUR',
        meta: { ...base.meta!, speed: 10 },
        cell: { ...base.cell!, speed: 20, flashRates: { inCloud: 3, cloudToGround: 1, total: 0 } },
      }),
      NOW,
      DEFAULT_RULES,
    );
    assert.ok(result.ok);
    const event = result.value.events[0]!;
    assert.equal(event.meta!.speedKmh, 16.093);
    assert.equal(event.cell!.speedKmh, 32.187);
    assert.equal(event.cell!.flashRates!.total, 4);
  });

  it('orients the polygons', () => {
    const base = thunderstorm();
    const result = validateThunderstorm(
      thunderstorm({ cell: { ...base.cell!, polygon: { exterior: square(32.85, 39.93, 0.02, true), holes: [] } } }),
      NOW,
      DEFAULT_RULES,
    );
    assert.ok(result.ok);
    assert.ok(signedArea(result.value.events[0]!.cell!.polygon!.exterior!.points) > 0);
  });

  it('rejects an end before the start, an unset severity and a missing cell', () => {
    const bad = validateThunderstorm(thunderstorm({ endEpochMs: NOW - 700_000, severity: 'THUNDERSTORM_SEVERITY_UNSPECIFIED' }), NOW, DEFAULT_RULES);
    assert.equal(bad.ok, false);
    if (!bad.ok) {
      assert.match(bad.reason, /end_epoch_ms: .* is before start_epoch_ms/);
      assert.match(bad.reason, /severity: is required/);
    }
    const noCell = validateThunderstorm(thunderstorm({ cell: null }), NOW, DEFAULT_RULES);
    assert.equal(noCell.ok, false);
    if (!noCell.ok) assert.match(noCell.reason, /^cell: is required/);
  });

  it('rejects an implausible speed and an open threat polygon', () => {
    const base = thunderstorm();
    const fast = validateThunderstorm(thunderstorm({ cell: { ...base.cell!, speed: 400 } }), NOW, DEFAULT_RULES);
    assert.equal(fast.ok, false);
    if (!fast.ok) assert.match(fast.reason, /cell\.speed: 400 \(400 km\/h\) is outside 0 to 300 km\/h/);
    const ring = square(32.85, 39.93, 0.1);
    ring.points.pop();
    const open = validateThunderstorm(thunderstorm({ threatPolygon: { exterior: ring, holes: [] } }), NOW, DEFAULT_RULES);
    assert.equal(open.ok, false);
    if (!open.ok) assert.match(open.reason, /threat_polygon\.exterior: ring is not closed/);
  });
});
