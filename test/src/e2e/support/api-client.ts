/** One HTTP answer of the gateway, body parsed when it is JSON. */
export interface Answer {
  status: number;
  headers: Headers;
  // The suite reads many shapes; each test asserts the fields it relies on.
  body: any;
  text: string;
}

export interface CallOptions {
  body?: unknown;
  /** Raw body bytes or text, sent as they are (malformed JSON, oversized payloads). */
  rawBody?: string | Buffer;
  token?: string;
  apiKey?: string;
  headers?: Record<string, string>;
}

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

/** The public /v1 API over fetch, the way a customer's program calls it. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async call(method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers['authorization'] = `Bearer ${options.token}`;
    if (options.apiKey) headers['x-api-key'] = options.apiKey;
    let body: string | Buffer | undefined;
    if (options.rawBody !== undefined) body = options.rawBody;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    Object.assign(headers, options.headers);
    const response = await fetch(`${this.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}), signal: AbortSignal.timeout(30_000) });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('json') && text.length > 0;
    let parsed: unknown = undefined;
    if (isJson) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = undefined; // left for the test to notice: a JSON content type with a broken body
      }
    }
    return { status: response.status, headers: response.headers, body: parsed, text };
  }

  async login(username: string, password: string): Promise<Session> {
    const answer = await this.call('POST', '/v1/auth/login', { body: { username, password } });
    if (answer.status !== 200) throw new Error(`login of ${username} answered ${answer.status}: ${answer.text}`);
    return { accessToken: String(answer.body.accessToken), refreshToken: String(answer.body.refreshToken), expiresIn: Number(answer.body.expiresIn) };
  }

  /** A request that must succeed with `status`; the failure message carries the answer. */
  async expect(status: number, method: string, path: string, options: CallOptions = {}): Promise<Answer> {
    const answer = await this.call(method, path, options);
    if (answer.status !== status) throw new Error(`${method} ${path} answered ${answer.status}, expected ${status}: ${answer.text.slice(0, 2000)}`);
    return answer;
  }
}
