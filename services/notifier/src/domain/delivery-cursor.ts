/** Where a delivery stands in the newest-first order of a list. */
export interface DeliveryPosition {
  createdAt: Date;
  id: string;
}

/**
 * A page cursor: the position of a page's last delivery in the newest-first order, opaque to clients
 * (base64url of `[createdAt ms, id]`). Unlike page numbers it does not shift when new deliveries
 * arrive while a client pages through a storm's worth of them.
 */
export function encodeCursor(position: DeliveryPosition): string {
  return Buffer.from(JSON.stringify([position.createdAt.getTime(), position.id]), 'utf8').toString('base64url');
}

/** The position a cursor names; undefined for anything this API did not issue. */
export function decodeCursor(cursor: string): DeliveryPosition | undefined {
  if (cursor.length > 400 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (!Array.isArray(parsed) || parsed.length !== 2) return undefined;
    const [ms, id] = parsed as unknown[];
    if (typeof ms !== 'number' || !Number.isSafeInteger(ms) || ms < 0 || typeof id !== 'string' || id === '' || id.length > 200) return undefined;
    return { createdAt: new Date(ms), id };
  } catch {
    return undefined;
  }
}
