import type { queryV1, weatherV1 } from '@stormhook/proto';
import type { QueryContext } from './context.js';
import { invalidArgument, notFound } from './errors.js';
import { maskFor, resolveGeography, visible } from './geography.js';
import { checkPage, checkWindow, LIMITS, Problems } from './limits.js';

const PREFIX = 'tst_';

/**
 * interface.md 4.3: the storms whose lifetime [start, end] overlaps the window
 * [end - backwardInterval, end], touching the caller's geography with their cell or threat area,
 * latest end first, with the exact total.
 */
export async function listThunderstorms(ctx: QueryContext, request: queryV1.ListThunderstormsRequest): Promise<queryV1.ListThunderstormsResponse> {
  const queryEpochMs = ctx.now();
  const p = new Problems();
  checkWindow(p, request.endEpochMs, request.backwardIntervalS, LIMITS.listWindowSeconds);
  const { offset, size } = checkPage(p, request.page);
  if (p.list.length > 0) throw invalidArgument(p.list);

  const model = ctx.thunderstorms;
  const mask = maskFor(resolveGeography(request.geography, ctx.areas()), model.index);
  const { total, slots } = model.index.page(
    {
      timeFrom: request.endEpochMs - request.backwardIntervalS * 1000,
      timeTo: request.endEpochMs,
      startAtMost: request.endEpochMs,
      ...(mask ? { areaMask: mask } : {}),
    },
    offset,
    size,
  );
  const events = await model.payloads(slots.map((slot) => model.index.entryAt(slot)));
  return {
    thunderstorms: events.filter((e): e is weatherV1.ThunderstormEvent => e !== undefined),
    page: { pageNumber: request.page?.pageNumber ?? 0, pageSize: size, totalRecords: total },
    queryEpochMs,
  };
}

/** One storm by its public id (`tst_...`) or the tracker's own id; 404 when unknown or not visible. */
export async function getThunderstorm(ctx: QueryContext, request: queryV1.GetThunderstormRequest): Promise<queryV1.GetThunderstormResponse> {
  const id = request.eventId.trim();
  if (id === '') throw invalidArgument(['eventId must not be empty']);
  const model = ctx.thunderstorms;
  const entry = model.index.get(id) ?? (id.startsWith(PREFIX) ? undefined : model.index.get(`${PREFIX}${id}`));
  const filter = resolveGeography(request.geography, ctx.areas());
  const event = entry && visible(filter, entry.areas) ? await model.payload(entry) : undefined;
  if (!event) throw notFound(`No thunderstorm event found with eventId ${id}`);
  return { thunderstorm: event };
}
