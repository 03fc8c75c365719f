import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One point inside the smoke test's boundary fixture (see smokeGeoFixture). */
export const SMOKE_POINT = { lat: 39.93, lng: 32.85 };

/**
 * The boundary data the smoke test's geo container imports: one province (Ankara, plate code 6) as
 * a square around SMOKE_POINT, in the format of ../shared/data/geo, so the smoke test needs no data
 * beside the checkout.
 */
export function smokeGeoFixture(): string {
  const { lat, lng } = SMOKE_POINT;
  const ring = [
    [lng - 0.5, lat - 0.5],
    [lng + 0.5, lat - 0.5],
    [lng + 0.5, lat + 0.5],
    [lng - 0.5, lat + 0.5],
    [lng - 0.5, lat - 0.5],
  ];
  return JSON.stringify({
    type: 'FeatureCollection',
    features: [{ type: 'Feature', properties: { id: 6, name: 'Ankara', country: 'TUR' }, geometry: { type: 'Polygon', coordinates: [ring] } }],
  });
}

interface Answer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A webhook receiver on 127.0.0.1 for the alarm registration's webhook (never called in the smoke test). */
export async function startReceiver(): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, server };
}

/**
 * What the smoke test asks of the gateway container once every service is up: the administrator
 * logs in and creates an API user with an account on a paid plan; the user makes one metered data
 * call (it must carry the quota headers) and registers one point alarm. Each step throws with the
 * status and body when it does not answer as the contract says.
 */
export class SmokeApi {
  constructor(private readonly base: string) {}

  async call(method: string, path: string, options: { body?: unknown; token?: string } = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await response.text();
    let body: Record<string, unknown>;
    try {
      body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
    } catch {
      body = { raw: text.slice(0, 500) };
    }
    return { status: response.status, headers: response.headers, body };
  }

  private async expect(step: string, status: number, answer: Promise<Answer>): Promise<Answer> {
    const a = await answer;
    if (a.status !== status) throw new Error(`${step}: expected ${status}, got ${a.status} ${JSON.stringify(a.body).slice(0, 500)}`);
    return a;
  }

  async login(username: string, password: string): Promise<string> {
    const a = await this.expect(`login ${username}`, 200, this.call('POST', '/v1/auth/login', { body: { username, password } }));
    return String(a.body['accessToken']);
  }

  /** Creates an API_USER with a PREMIUM_MONTHLY account; returns the user's access token. */
  async apiUser(adminToken: string): Promise<string> {
    const username = `smoke-${Date.now().toString(36)}@example.com`;
    const password = 'smoke-password-1';
    const created = await this.expect(
      'create user',
      201,
      this.call('POST', '/v1/users/create', { token: adminToken, body: { username, firstName: 'Image', lastName: 'Smoke', role: 'API_USER', password } }),
    );
    await this.expect(
      'create account',
      200,
      this.call('POST', '/v1/accounts/create', {
        token: adminToken,
        body: { userId: created.body['userId'], type: 'ORGANIZATION', subscriptionPlan: 'PREMIUM_MONTHLY' },
      }),
    );
    return this.login(username, password);
  }

  /** One metered call: the cities of Turkey; the answer must carry the remaining quota. */
  async meteredCall(token: string): Promise<string> {
    const a = await this.expect('metered GET /v1/alarms/forecasts/TUR/cities', 200, this.call('GET', '/v1/alarms/forecasts/TUR/cities', { token }));
    const remaining = a.headers.get('ratelimit-remaining') ?? a.headers.get('ratelimit');
    if (!remaining) throw new Error(`metered call answered 200 without RateLimit headers: ${[...a.headers.keys()].join(', ')}`);
    return `200, RateLimit-Remaining ${remaining}`;
  }

  /**
   * The API reference page and its renderer: the image carries only the renderer's bundle (docs-assets/,
   * not the package), so this is what proves the copy reached the image.
   */
  async docsPage(): Promise<string> {
    const page = await fetch(`${this.base}/docs`, { signal: AbortSignal.timeout(30_000) });
    const html = await page.text();
    if (page.status !== 200 || !html.includes('/docs/assets/standalone.js')) throw new Error(`GET /docs: ${page.status} ${html.slice(0, 200)}`);
    const bundle = await fetch(`${this.base}/docs/assets/standalone.js`, { signal: AbortSignal.timeout(30_000) });
    const bytes = (await bundle.arrayBuffer()).byteLength;
    const type = bundle.headers.get('content-type') ?? '';
    if (bundle.status !== 200 || !type.includes('javascript') || bytes < 100_000)
      throw new Error(`GET /docs/assets/standalone.js: ${bundle.status} ${type}, ${bytes} bytes`);
    return `200, renderer ${(bytes / 1e6).toFixed(1)} MB`;
  }

  /**
   * The customer console: its page and bundle come from console-assets/ in the gateway image (the
   * web/console build), so this is what proves the build and the copy reached the image.
   */
  async consolePage(): Promise<string> {
    const page = await fetch(`${this.base}/console`, { signal: AbortSignal.timeout(30_000) });
    const html = await page.text();
    if (page.status !== 200 || !html.includes('/console/console.js')) throw new Error(`GET /console: ${page.status} ${html.slice(0, 200)}`);
    let total = 0;
    for (const file of ['console.js', 'console.css', 'maplibre-gl-worker.mjs']) {
      const asset = await fetch(`${this.base}/console/${file}`, { signal: AbortSignal.timeout(30_000) });
      const bytes = (await asset.arrayBuffer()).byteLength;
      const type = asset.headers.get('content-type') ?? '';
      if (asset.status !== 200 || !/javascript|css/.test(type) || bytes < 10_000)
        throw new Error(`GET /console/${file}: ${asset.status} ${type}, ${bytes} bytes`);
      total += bytes;
    }
    return `200, bundle ${(total / 1e6).toFixed(1)} MB`;
  }

  /** One point alarm registration (lightning within 3 km of SMOKE_POINT), read back by recipient. */
  async registerAlarm(token: string, webhookUrl: string): Promise<string> {
    const recipientId = `smoke-${Date.now().toString(36)}`;
    const a = await this.expect(
      'POST /v1/alarms/points/register',
      200,
      this.call('POST', '/v1/alarms/points/register', {
        token,
        body: {
          recipientId,
          boundary: { point: SMOKE_POINT, radius: 3_000 },
          webhook: { url: webhookUrl, httpMethod: 'POST', contentType: 'application/json', deliveryPolicy: { timeout: 4_000, maxRetries: 2, retryDelay: 2 } },
          filter: { lightning: {} },
        },
      }),
    );
    const id = String(a.body['registrationId']);
    const listed = await this.expect(
      'GET /v1/alarms/points/get-by-recipient-id',
      200,
      this.call('GET', `/v1/alarms/points/get-by-recipient-id/${recipientId}`, { token }),
    );
    const registrations = (listed.body['registrations'] ?? []) as Array<{ id?: string; registrationId?: string }>;
    if (!registrations.some((r) => (r.registrationId ?? r.id) === id))
      throw new Error(`registration ${id} is not listed for ${recipientId}: ${JSON.stringify(listed.body).slice(0, 500)}`);
    return `200, registration ${id}, listed by recipient`;
  }
}
