import { circleTouchesMultiPolygon, GeodesicCircle } from '@stormhook/geometry';
import type { queryV1 } from '@stormhook/proto';
import { boxRelation } from '../geometry/circle-relation.js';
import { precipitationRings } from '../domain/event-entries.js';
import { intensityOfRank, intensityRank } from '../domain/ranks.js';
import { FLAG_FORECAST, type IndexEntry } from '../read-models/entry.js';
import type { IndexQuery } from '../read-models/event-index.js';
import type { QueryContext } from './context.js';
import { invalidArgument } from './errors.js';
import { maskFor, resolveGeography } from './geography.js';
import { checkPage, checkPoint, checkWindow, LIMITS, Problems } from './limits.js';

function record(entry: IndexEntry): queryV1.PrecipitationRecord {
  return {
    eventId: entry.eventId,
    radarTimestampEpochMs: entry.time,
    forecast: (entry.flags & FLAG_FORECAST) !== 0,
    intensity: intensityOfRank(entry.rank),
  };
}

/**
 * interface.md 4.2 (and the incumbent's /precipitations/within with `within`): the events whose
 * radar time lies in [end - backwardInterval, end] (both inclusive), at or above the intensity
 * threshold, touching the caller's geography (and the circle), newest first, with the exact total.
 */
export async function listPrecipitations(ctx: QueryContext, request: queryV1.ListPrecipitationsRequest): Promise<queryV1.ListPrecipitationsResponse> {
  const queryEpochMs = ctx.now();
  const p = new Problems();
  const within = request.within ?? undefined;
  checkWindow(p, request.endEpochMs, request.backwardIntervalS, within ? LIMITS.withinWindowSeconds : LIMITS.listWindowSeconds);
  const { offset, size } = checkPage(p, request.page);
  let circle: GeodesicCircle | undefined;
  if (within) {
    if (checkPoint(p, 'center', within.center)) circle = new GeodesicCircle([within.center.lng, within.center.lat], within.radiusM);
    p.check(
      Number.isFinite(within.radiusM) && within.radiusM >= 0 && within.radiusM <= LIMITS.withinRadiusMaxM,
      `radius must be between 0 and ${LIMITS.withinRadiusMaxM} (meters)`,
    );
  }
  if (p.list.length > 0) throw invalidArgument(p.list);

  const model = ctx.precipitations;
  const filter = resolveGeography(request.geography, ctx.areas());
  const mask = maskFor(filter, model.index);
  const q: IndexQuery = {
    timeFrom: request.endEpochMs - request.backwardIntervalS * 1000,
    timeTo: request.endEpochMs,
    minRank: request.intensityThreshold === 'PRECIPITATION_INTENSITY_UNSPECIFIED' ? 0 : intensityRank(request.intensityThreshold),
    ...(mask ? { areaMask: mask } : {}),
  };
  const page = (total: number, slots: number[]): queryV1.ListPrecipitationsResponse => ({
    precipitations: slots.map((slot) => record(model.index.entryAt(slot))),
    page: { pageNumber: request.page?.pageNumber ?? 0, pageSize: size, totalRecords: total },
    queryEpochMs,
  });
  if (!circle) {
    const { total, slots } = model.index.page(q, offset, size);
    return page(total, slots);
  }
  return page(...(await matchesWithin(ctx, q, circle, offset, size)));
}

/**
 * Boxes decide most events (wholly inside or clear of the circle); the rest are tested against
 * their geometry, read from the cache or the database.
 */
async function matchesWithin(ctx: QueryContext, q: IndexQuery, circle: GeodesicCircle, offset: number, size: number): Promise<[number, number[]]> {
  const model = ctx.precipitations;
  const candidates: Array<{ slot: number; sure: boolean }> = [];
  model.index.forEachMatch(q, (slot) => {
    const relation = boxRelation(model.index.bboxAt(slot), circle);
    if (relation !== 'disjoint') candidates.push({ slot, sure: relation === 'inside' });
  });
  const unsure = candidates.filter((c) => !c.sure);
  const events = await model.payloads(unsure.map((c) => model.index.entryAt(c.slot)));
  unsure.forEach((c, i) => {
    const event = events[i];
    c.sure = event !== undefined && circleTouchesMultiPolygon(circle, precipitationRings(event));
  });
  const matches = candidates.filter((c) => c.sure).map((c) => c.slot);
  return [matches.length, matches.slice(offset, offset + size)];
}
