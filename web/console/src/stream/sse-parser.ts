/** One server-sent event as the wire carries it (the HTML standard's event stream format). */
export interface RawSseEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * Incremental parser of text/event-stream: feed it decoded text in chunks of any size, it hands out
 * every complete event. Comment lines (`: keep-alive`) are skipped; an event without `event:` is a
 * `message`, as EventSource names it. Written out because EventSource cannot send the Authorization
 * or X-API-Key header, so the stream is read with fetch() and a ReadableStream.
 */
export class SseParser {
  private buffer = '';
  private event = '';
  private data: string[] = [];
  private id: string | undefined;

  constructor(private readonly emit: (event: RawSseEvent) => void) {}

  push(text: string): void {
    this.buffer += text;
    for (;;) {
      const end = this.lineEnd();
      if (end === undefined) return;
      const line = this.buffer.slice(0, end.at);
      this.buffer = this.buffer.slice(end.at + end.length);
      this.line(line);
    }
  }

  /** The first line break (CRLF, LF or CR); a CR at the very end waits, as it may be half a CRLF. */
  private lineEnd(): { at: number; length: number } | undefined {
    const lf = this.buffer.indexOf('\n');
    const cr = this.buffer.indexOf('\r');
    if (cr === -1 || (lf !== -1 && lf < cr)) return lf === -1 ? undefined : { at: lf, length: 1 };
    if (cr === this.buffer.length - 1) return undefined;
    return this.buffer[cr + 1] === '\n' ? { at: cr, length: 2 } : { at: cr, length: 1 };
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0) {
        this.emit({ event: this.event === '' ? 'message' : this.event, data: this.data.join('\n'), ...(this.id === undefined ? {} : { id: this.id }) });
      }
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id' && !value.includes('\0')) this.id = value;
  }
}
