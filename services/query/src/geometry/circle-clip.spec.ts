import assert from 'node:assert/strict';
import { distanceM, pointInMultiPolygon, type Circle, type MultiPolygon, type Polygon, type Position, type Ring } from '@stormhook/geometry';
import { rectangleRing } from '@stormhook/geometry/testing';
import { cropToCircle } from './circle-clip.js';

const CENTER: Position = [32.85, 39.93];
const circle: Circle = { center: CENTER, radiusM: 50_000 };

/** Closed counterclockwise box. */
const box = rectangleRing;

const cw = (ring: Ring) => [...ring].reverse();

function vertices(polygons: MultiPolygon): Position[] {
  return polygons.flatMap((p) => [p.exterior, ...p.holes].flat());
}

function assertInside(polygons: MultiPolygon, c: Circle): void {
  for (const v of vertices(polygons)) {
    const d = distanceM(c.center, v);
    assert.ok(d <= c.radiusM, `vertex ${v[0]},${v[1]} is ${d} m from the centre, radius ${c.radiusM}`);
  }
}

function ringsClosed(polygons: MultiPolygon): void {
  for (const ring of polygons.flatMap((p) => [p.exterior, ...p.holes])) {
    assert.ok(ring.length >= 4);
    assert.deepEqual(ring[0], ring.at(-1));
  }
}

/** Even-odd test in lng/lat, good enough for probes well away from edges. */
function covers(polygons: MultiPolygon, p: Position): boolean {
  return pointInMultiPolygon(p[0], p[1], polygons);
}

describe('cropping polygons to a geodesic circle', () => {
  it('returns a polygon wholly inside the circle unchanged, holes included', () => {
    const polygon: Polygon = { exterior: box(32.7, 39.8, 33.0, 40.05), holes: [cw(box(32.8, 39.9, 32.9, 39.95))] };
    assert.deepEqual(cropToCircle([polygon], circle), [polygon]);
  });

  it('drops a polygon wholly outside the circle', () => {
    assert.deepEqual(cropToCircle([{ exterior: box(35, 41, 36, 42), holes: [] }], circle), []);
  });

  it('turns a polygon that covers the whole circle into the circle itself', () => {
    const out = cropToCircle([{ exterior: box(30, 37, 36, 42), holes: [] }], circle);
    assert.equal(out.length, 1);
    assert.equal(out[0]!.holes.length, 0);
    assert.ok(out[0]!.exterior.length >= 360);
    assertInside(out, circle);
    ringsClosed(out);
    // The boundary follows the circle within 10 m.
    for (const v of out[0]!.exterior) assert.ok(distanceM(CENTER, v) > circle.radiusM - 10);
  });

  it('cuts a polygon crossing the circle: every vertex inside, the inside kept, the outside gone', () => {
    const polygon: Polygon = { exterior: box(32.85, 39.0, 34.0, 41.0), holes: [] }; // the eastern half-plane
    const out = cropToCircle([polygon], circle);
    assert.equal(out.length, 1);
    assertInside(out, circle);
    ringsClosed(out);
    assert.ok(covers(out, [33.2, 39.93]), 'east of the centre, inside the circle');
    assert.ok(!covers(out, [32.5, 39.93]), 'west of the centre is not part of the polygon');
    assert.ok(!covers(out, [33.6, 39.93]), 'beyond the radius');
  });

  it('keeps a hole that crosses the circle out of the result', () => {
    const polygon: Polygon = { exterior: box(31, 38, 35, 42), holes: [cw(box(33.2, 39.8, 34, 40.1))] };
    const out = cropToCircle([polygon], circle);
    assertInside(out, circle);
    ringsClosed(out);
    assert.ok(!covers(out, [33.35, 39.93]), 'inside the hole');
    assert.ok(covers(out, [32.6, 39.93]), 'inside the polygon and the circle');
  });

  it('keeps a hole wholly inside the circle as a hole of the cropped part', () => {
    const hole = cw(box(32.8, 39.9, 32.9, 39.95));
    const out = cropToCircle([{ exterior: box(31, 38, 35, 42), holes: [hole] }], circle);
    assert.equal(out.length, 1);
    assert.deepEqual(out[0]!.holes, [hole]);
  });

  it('splits a U-shaped polygon whose bend lies outside the circle into two parts', () => {
    // Two prongs reaching down into the circle, joined north of it.
    const u: Position[] = [
      [32.5, 39.8],
      [32.7, 39.8],
      [32.7, 40.6],
      [33.0, 40.6],
      [33.0, 39.8],
      [33.2, 39.8],
      [33.2, 40.8],
      [32.5, 40.8],
      [32.5, 39.8],
    ];
    const out = cropToCircle([{ exterior: u, holes: [] }], circle);
    assert.equal(out.length, 2);
    assertInside(out, circle);
    assert.ok(covers(out, [32.6, 39.9]) && covers(out, [33.1, 39.9]));
    assert.ok(!covers(out, [32.85, 39.9]), 'the gap between the prongs');
  });
});
