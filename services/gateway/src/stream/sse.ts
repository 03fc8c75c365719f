import type { StreamEventDataByName, StreamEventName } from '@stormhook/webhooks/stream-events';

/**
 * One server-sent event as it goes on the wire (WHATWG HTML, "Server-sent events"): `event:`, `id:`,
 * one `data:` line and a blank line. JSON.stringify escapes every line break, so the data is always
 * one line. Built once per event and shared by every stream that carries it.
 */
export function sseFrame<N extends StreamEventName>(event: N, data: StreamEventDataByName[N], id?: string): string {
  return `event: ${event}\n${id !== undefined ? `id: ${id}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: clients ignore it, proxies and idle timers see traffic. */
export const KEEP_ALIVE_FRAME = ': keep-alive\n\n';

/** The `id:` of a weather event: unique per revision, as the Kafka header event-id is. */
export function eventFrameId(eventId: string, revision: number): string {
  return `${eventId}.${revision}`;
}
