/** A DevTools-protocol event: its method and parameters. */
export interface DevToolsEvent {
  method: string;
  params: Record<string, unknown>;
}

/**
 * One page's DevTools-protocol socket: commands answered by id, events handed to a listener. Node's
 * own WebSocket, so browser tests need no client library.
 */
export class DevToolsSession {
  private next = 0;
  private readonly pending = new Map<number, { resolve: (result: Record<string, unknown>) => void; reject: (error: Error) => void }>();

  private constructor(
    private readonly socket: WebSocket,
    onEvent: (event: DevToolsEvent) => void,
  ) {
    socket.onmessage = (message) => {
      const data = JSON.parse(String(message.data)) as {
        id?: number;
        result?: Record<string, unknown>;
        error?: { message?: string };
        method?: string;
        params?: Record<string, unknown>;
      };
      if (data.id === undefined) {
        if (data.method) onEvent({ method: data.method, params: data.params ?? {} });
        return;
      }
      const waiting = this.pending.get(data.id);
      this.pending.delete(data.id);
      if (data.error) waiting?.reject(new Error(`DevTools: ${data.error.message ?? JSON.stringify(data.error)}`));
      else waiting?.resolve(data.result ?? {});
    };
  }

  static async connect(webSocketUrl: string, onEvent: (event: DevToolsEvent) => void): Promise<DevToolsSession> {
    const socket = new WebSocket(webSocketUrl);
    await new Promise<void>((resolve, reject) => {
      socket.onopen = () => resolve();
      socket.onerror = () => reject(new Error('DevTools socket failed'));
    });
    return new DevToolsSession(socket, onEvent);
  }

  send(method: string, params: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const id = ++this.next;
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }
}
