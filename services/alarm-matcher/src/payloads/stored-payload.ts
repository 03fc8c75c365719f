/**
 * What a lifecycle state keeps of the last callback it caused: the whole payload but its outlines.
 * The stored payload is the base of the END or cancellation the sweeper sends when the event stops
 * being updated, and by then its last outline is stale (no revision for the grace period), so those
 * callbacks carry `affectedPolygon` and `cell.polygon` as null, which the schema allows. Leaving the
 * outlines out keeps an event's states document small when it concerns thousands of registrations
 * (each outline repeats in every state, hundreds of bytes to kilobytes).
 */
export function storedPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const slim: Record<string, unknown> = { ...payload };
  if ('affectedPolygon' in slim) slim['affectedPolygon'] = null;
  const cell = slim['cell'];
  if (cell !== null && typeof cell === 'object' && 'polygon' in cell) slim['cell'] = { ...(cell as Record<string, unknown>), polygon: null };
  return slim;
}
