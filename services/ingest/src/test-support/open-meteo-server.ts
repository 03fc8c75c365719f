import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The recorded answers under src/open-meteo/fixtures (read from source: tsc does not copy JSON to dist). */
export function recordedAnswer(name: 'forecast-istanbul-ankara' | 'forecast-ankara-imperial'): string {
  return readFileSync(new URL(`../../src/open-meteo/fixtures/${name}.json`, import.meta.url), 'utf8');
}

export interface FakeOpenMeteo {
  baseUrl: string;
  requests: URL[];
  close(): Promise<void>;
}

/**
 * A local HTTP server speaking Open-Meteo's /v1/forecast: `answer` decides the status and body for
 * each request (the tests answer with recorded responses), so the adapter's real fetch, URL building
 * and parsing all run.
 */
export async function fakeOpenMeteo(answer: (url: URL) => { status: number; body: string }): Promise<FakeOpenMeteo> {
  const requests: URL[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(url);
    if (url.pathname !== '/v1/forecast') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":true,"reason":"Not Found"}');
      return;
    }
    const { status, body } = answer(url);
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve()))),
  };
}
