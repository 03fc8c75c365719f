import { bboxesOverlap, type BBox, type GeodesicCircle } from '@stormhook/geometry';

export type CircleRelation = 'disjoint' | 'inside' | 'maybe';

/**
 * A cheap first answer from boxes alone: 'disjoint' when the box misses the circle's box,
 * 'inside' when all four corners of the box lie within the circle (the box, and so the event, is
 * wholly inside: geodesic distance along a parallel grows with the longitude difference and along
 * a meridian has one minimum, so a box whose corners are inside is inside), 'maybe' otherwise,
 * when only the geometry itself can tell.
 */
export function boxRelation(box: BBox, circle: GeodesicCircle): CircleRelation {
  if (!bboxesOverlap(box, circle.bbox)) return 'disjoint';
  const inside =
    circle.contains(box.minLng, box.minLat) &&
    circle.contains(box.maxLng, box.minLat) &&
    circle.contains(box.maxLng, box.maxLat) &&
    circle.contains(box.minLng, box.maxLat);
  return inside ? 'inside' : 'maybe';
}
