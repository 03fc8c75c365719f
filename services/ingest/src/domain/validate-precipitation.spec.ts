import assert from 'node:assert/strict';
import { ANKARA, NOW, precipitation, square } from '../test-support/feed-fixtures.js';
import { signedArea } from './geo/rings.js';
import { DEFAULT_RULES } from './rules.js';
import { validatePrecipitation } from './validate-precipitation.js';

function reason(result: ReturnType<typeof validatePrecipitation>): string {
  assert.equal(result.ok, false, 'expected a reject');
  return result.ok ? '' : result.reason;
}

describe('validatePrecipitation', () => {
  it('normalises a valid record into a PrecipitationEvent body', () => {
    const result = validatePrecipitation(precipitation(), NOW, DEFAULT_RULES);
    assert.ok(result.ok);
    const [event] = result.value.events;
    assert.equal(event!.eventId, 'prc_radar-1');
    assert.equal(event!.intensity, 'PRECIPITATION_INTENSITY_MODERATE');
    assert.equal(event!.areaKey, 'sxp');
    assert.deepEqual(event!.bbox, { minLng: ANKARA.lng - 0.2, minLat: ANKARA.lat - 0.2, maxLng: ANKARA.lng + 0.2, maxLat: ANKARA.lat + 0.2 });
    assert.ok(Math.abs(event!.centroid!.lng - ANKARA.lng) < 1e-9);
    // 0.4 x 0.4 degrees at 40 N: about 44.5 km x 34.1 km.
    assert.ok(event!.areaKm2 > 1400 && event!.areaKm2 < 1600, `area ${event!.areaKm2}`);
    assert.equal(result.value.eventTimeEpochMs, NOW - 60_000);
  });

  it('orients the exterior counterclockwise and holes clockwise', () => {
    const msg = precipitation({
      geometry: { polygons: [{ exterior: square(ANKARA.lng, ANKARA.lat, 0.2, true), holes: [square(ANKARA.lng, ANKARA.lat, 0.05, false)] }] },
    });
    const result = validatePrecipitation(msg, NOW, DEFAULT_RULES);
    assert.ok(result.ok);
    const polygon = result.value.events[0]!.geometry!.polygons[0]!;
    assert.ok(signedArea(polygon.exterior!.points) > 0);
    assert.ok(signedArea(polygon.holes[0]!.points) < 0);
  });

  it('classifies a rain rate and keeps it', () => {
    const result = validatePrecipitation(precipitation({ intensity: undefined, rainRateMmPerH: 12 }), NOW, DEFAULT_RULES);
    assert.ok(result.ok);
    assert.equal(result.value.events[0]!.intensity, 'PRECIPITATION_INTENSITY_HEAVY');
    assert.equal(result.value.events[0]!.rainRateMmPerH, 12);
  });

  it('rejects an open ring, naming the ring', () => {
    const ring = square(ANKARA.lng, ANKARA.lat, 0.2);
    ring.points.pop();
    const text = reason(validatePrecipitation(precipitation({ geometry: { polygons: [{ exterior: ring, holes: [] }] } }), NOW, DEFAULT_RULES));
    assert.match(text, /^geometry\.polygons\[0\]\.exterior: ring is not closed/);
  });

  it('rejects out-of-range coordinates with the exact point', () => {
    const ring = square(ANKARA.lng, ANKARA.lat, 0.2);
    ring.points[2] = { lng: 32.9, lat: 95 };
    const text = reason(validatePrecipitation(precipitation({ geometry: { polygons: [{ exterior: ring, holes: [] }] } }), NOW, DEFAULT_RULES));
    assert.match(text, /geometry\.polygons\[0\]\.exterior\.points\[2\]\.lat: 95 is outside -90 to 90/);
  });

  it('rejects a hole outside its exterior and a degenerate ring', () => {
    const outside = precipitation({
      geometry: { polygons: [{ exterior: square(ANKARA.lng, ANKARA.lat, 0.2), holes: [square(ANKARA.lng + 1, ANKARA.lat, 0.05)] }] },
    });
    assert.match(reason(validatePrecipitation(outside, NOW, DEFAULT_RULES)), /holes\[0\]: hole vertex .* outside the exterior/);
    const line = {
      points: [
        { lng: 30, lat: 40 },
        { lng: 31, lat: 40 },
        { lng: 32, lat: 40 },
        { lng: 30, lat: 40 },
      ],
    };
    assert.match(
      reason(validatePrecipitation(precipitation({ geometry: { polygons: [{ exterior: line, holes: [] }] } }), NOW, DEFAULT_RULES)),
      /encloses no area/,
    );
  });

  it('rejects geometry wholly outside the covered area', () => {
    const msg = precipitation({ geometry: { polygons: [{ exterior: square(2.35, 48.85, 0.2), holes: [] }] } });
    assert.match(reason(validatePrecipitation(msg, NOW, DEFAULT_RULES)), /^geometry: lies wholly outside the covered area/);
  });

  it('rejects times too far ahead, except nowcasts within their lead', () => {
    const ahead = NOW + 30 * 60_000;
    assert.match(
      reason(validatePrecipitation(precipitation({ radarTimestampEpochMs: ahead }), NOW, DEFAULT_RULES)),
      /radar_timestamp_epoch_ms: .* is 30\.0 min in the future/,
    );
    assert.ok(validatePrecipitation(precipitation({ radarTimestampEpochMs: ahead, forecast: true }), NOW, DEFAULT_RULES).ok);
    const tooFar = NOW + 7 * 3_600_000;
    assert.match(reason(validatePrecipitation(precipitation({ radarTimestampEpochMs: tooFar, forecast: true }), NOW, DEFAULT_RULES)), /in the future/);
  });

  it('rejects records older than the accepted age and missing times', () => {
    const old = NOW - 8 * 86_400_000;
    assert.match(reason(validatePrecipitation(precipitation({ radarTimestampEpochMs: old }), NOW, DEFAULT_RULES)), /older than the accepted 7\.0 days/);
    assert.match(reason(validatePrecipitation(precipitation({ radarTimestampEpochMs: 0 }), NOW, DEFAULT_RULES)), /radar_timestamp_epoch_ms: is required/);
  });

  it('rejects a missing intensity, a bad rain rate and a bad source id', () => {
    assert.match(
      reason(validatePrecipitation(precipitation({ intensity: 'PRECIPITATION_INTENSITY_UNSPECIFIED' }), NOW, DEFAULT_RULES)),
      /intensity: is required/,
    );
    assert.match(reason(validatePrecipitation(precipitation({ intensity: undefined, rainRateMmPerH: 0 }), NOW, DEFAULT_RULES)), /rain_rate_mm_per_h: 0 mm\/h/);
    assert.match(reason(validatePrecipitation(precipitation({ sourceEventId: 'has space' }), NOW, DEFAULT_RULES)), /source_event_id: "has space" must be/);
  });

  it('enforces the vertex budget of a record', () => {
    const text = reason(validatePrecipitation(precipitation(), NOW, { ...DEFAULT_RULES, maxVertices: 4 }));
    assert.match(text, /more than 4 vertices/);
  });
});
