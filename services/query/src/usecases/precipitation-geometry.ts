import type { Circle, MultiPolygon } from '@stormhook/geometry';
import { queryV1, type weatherV1 } from '@stormhook/proto';
import { cropToCircle } from '../geometry/circle-clip.js';
import { precipitationRings } from '../domain/event-entries.js';
import { publicIntensity } from '../domain/ranks.js';
import type { QueryContext } from './context.js';
import { invalidArgument } from './errors.js';
import { resolveGeography, visible } from './geography.js';
import { checkPoint, LIMITS, Problems } from './limits.js';

function multiPolygonShape(polygons: MultiPolygon): queryV1.MultiPolygonShape {
  return {
    polygons: polygons.map((p) => ({
      rings: [p.exterior, ...p.holes].map((ring) => ({ coordinates: ring.map(([lng, lat]) => ({ lng, lat })) })),
    })),
  };
}

/** One feature of the collection: the (cropped) area with the event's intensity, time and flag. */
export function featureOf(event: weatherV1.PrecipitationEvent, polygons: MultiPolygon): queryV1.PrecipitationFeature {
  return {
    id: event.eventId,
    geometry: { type: 'GEOMETRY_TYPE_MULTI_POLYGON', multiPolygon: multiPolygonShape(polygons) },
    properties: { intensity: publicIntensity(event.intensity), radarTimestamp: event.radarTimestampEpochMs, forecast: event.forecast },
  };
}

/**
 * interface.md 4.1: the geometry of up to 10 events, cropped to the geodesic circle, encoded as a
 * PrecipitationFeatureCollection (one feature per event found, in request order; an event wholly
 * outside the circle comes back with no polygons). Ids that are unknown, purged or outside the
 * caller's geography are named in `missingEventIds` instead of failing the call.
 */
export async function precipitationGeometry(
  ctx: QueryContext,
  request: queryV1.GetPrecipitationGeometryRequest,
): Promise<queryV1.GetPrecipitationGeometryResponse> {
  const p = new Problems();
  p.check(request.eventIds.length <= LIMITS.geometryEventIdsMax, `eventIds must have at most ${LIMITS.geometryEventIdsMax} items`);
  let circle: Circle | undefined;
  const crop = request.crop ?? undefined;
  if (crop) {
    if (checkPoint(p, 'center', crop.center)) circle = { center: [crop.center.lng, crop.center.lat], radiusM: crop.radiusM };
    p.check(
      Number.isFinite(crop.radiusM) && crop.radiusM > 0 && crop.radiusM <= LIMITS.geometryRadiusMaxM,
      `radius must be above 0 and at most ${LIMITS.geometryRadiusMaxM} (meters)`,
    );
  }
  if (p.list.length > 0) throw invalidArgument(p.list);

  const filter = resolveGeography(request.geography, ctx.areas());
  const model = ctx.precipitations;
  const ids = [...new Set(request.eventIds)];
  const entries = ids.map((id) => {
    const entry = model.index.get(id);
    return entry && visible(filter, entry.areas) ? entry : undefined;
  });
  const found = entries.filter((e) => e !== undefined);
  const events = await model.payloads(found);
  const byId = new Map(found.map((e, i) => [e.eventId, events[i]]));
  const features: queryV1.PrecipitationFeature[] = [];
  const missingEventIds: string[] = [];
  for (const id of ids) {
    const event = byId.get(id);
    if (!event) {
      missingEventIds.push(id);
      continue;
    }
    const rings = precipitationRings(event);
    features.push(featureOf(event, circle ? cropToCircle(rings, circle) : rings));
  }
  return { featureCollection: queryV1.PrecipitationFeatureCollection.encode({ features }), missingEventIds };
}
