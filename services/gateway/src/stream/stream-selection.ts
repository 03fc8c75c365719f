import { bboxesOverlap, type BBox } from '@stormhook/geometry';
import type { StreamKind } from '@stormhook/webhooks/stream-events';

/**
 * Where a stream may look: every province (ADMIN), or the subscription areas (`<country>:<city id>`
 * keys of AreaIndex) its plan geography names; an empty set sees nothing, as the query service's
 * lists do for a plan without geography.
 */
export type AreaAccess = { all: true } | { all: false; keys: ReadonlySet<string> };

/** What one stream carries: the caller's kinds, optional box and plan geography. */
export interface StreamSelection {
  kinds: ReadonlySet<StreamKind>;
  bbox: BBox | undefined;
  areas: AreaAccess;
}

/**
 * One weather event ready to send: its kind, the subscription areas it touches (tagged once per
 * event, the rule the query service indexes by), the box it spans and its wire frame.
 */
export interface StreamItem {
  kind: StreamKind;
  areas: readonly string[];
  bbox: BBox;
  frame: string;
}

/** Whether a stream may carry an event: its kind asked for, inside the box if one was asked, and touching the plan geography. */
export function admits(selection: StreamSelection, item: StreamItem): boolean {
  if (!selection.kinds.has(item.kind)) return false;
  if (selection.bbox && !bboxesOverlap(selection.bbox, item.bbox)) return false;
  if (selection.areas.all) return true;
  const { keys } = selection.areas;
  return item.areas.some((area) => keys.has(area));
}
