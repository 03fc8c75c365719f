import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server } from 'node:http';
import { createLogger, type Logger } from '@stormhook/logger';
import { createApp, type AppDeps } from '../app.js';
import type { HealthPort } from '../health/health-port.js';

export interface RunningApp {
  baseUrl: string;
  close(): Promise<void>;
}

/** Starts the app on an ephemeral port, the way the gateway serves it (node:http, no test-only transport). */
export async function serve(deps: Partial<AppDeps> = {}): Promise<RunningApp> {
  const server: Server = createServer(createApp({ logger: deps.logger ?? silentLogger(), health: deps.health ?? upHealth, ...deps }));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

export const upHealth: HealthPort = { check: async () => ({ status: 'up', components: {} }) };

export function silentLogger(): Logger {
  return createLogger({ service: 'gateway-test', level: 'silent' });
}

/** A logger whose JSON lines are kept for assertions. */
export function recordingLogger(): { logger: Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const logger = createLogger({
    service: 'gateway-test',
    level: 'debug',
    destination: { write: (line: string) => lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  return { logger, lines };
}

export interface JsonAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export async function request(baseUrl: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers = { 'content-type': 'application/json', ...headers };
  }
  const response = await fetch(`${baseUrl}${path}`, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) };
}

export const LOCAL_NANO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}$/;
