import type { CredentialStore, Credentials } from './credentials.js';

/** An answer of the API as a value: the body on success, the ErrorResponse's message otherwise. */
export type ApiResult<T> = { ok: true; status: number; body: T } | { ok: false; status: number; message: string };

/** Refresh this long before the access token expires, so a request in flight never carries a stale one. */
const REFRESH_MARGIN_MS = 30_000;

interface TokenAnswer {
  username: string;
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * The public /v1 API as the console calls it: JSON in and out, the credentials attached, the access
 * token refreshed before it expires (and once more on a 401), errors turned into values.
 */
export class ApiClient {
  private refreshing: Promise<boolean> | undefined;
  /** Called when the credentials stop working (refresh refused): the console shows the sign-in again. */
  onSignedOut: () => void = () => undefined;

  constructor(
    private readonly store: CredentialStore,
    private readonly fetchImpl: Fetch = (input, init) => fetch(input, init),
    private readonly now: () => number = () => Date.now(),
  ) {}

  get credentials(): Credentials | undefined {
    return this.store.load();
  }

  async signIn(username: string, password: string): Promise<ApiResult<TokenAnswer>> {
    const answer = await this.raw<TokenAnswer>('POST', '/v1/auth/login', { username, password }, {});
    if (answer.ok) this.keepTokens(answer.body);
    return answer;
  }

  /** An API key is checked by asking who it belongs to before it is kept. */
  async signInWithApiKey(apiKey: string): Promise<ApiResult<unknown>> {
    const answer = await this.raw<unknown>('GET', '/v1/users/me', undefined, { 'X-API-Key': apiKey });
    if (answer.ok) this.store.save({ kind: 'apiKey', apiKey });
    return answer;
  }

  /** Ends the refresh token at the server too; the local credentials go whatever it answers. */
  async signOut(): Promise<void> {
    const held = this.store.load();
    this.store.clear();
    if (held?.kind === 'tokens') {
      await this.raw('POST', '/v1/auth/logout', { refreshToken: held.refreshToken }, { Authorization: `Bearer ${held.accessToken}` }).catch(() => undefined);
    }
  }

  get<T>(path: string): Promise<ApiResult<T>> {
    return this.call<T>('GET', path);
  }

  post<T>(path: string, body?: unknown): Promise<ApiResult<T>> {
    return this.call<T>('POST', path, body);
  }

  put<T>(path: string, body: unknown): Promise<ApiResult<T>> {
    return this.call<T>('PUT', path, body);
  }

  delete<T>(path: string): Promise<ApiResult<T>> {
    return this.call<T>('DELETE', path);
  }

  /** The headers that authenticate a request (fresh tokens first): also used by the stream reader. */
  async authHeaders(): Promise<Record<string, string> | undefined> {
    let held = this.store.load();
    if (!held) return undefined;
    if (held.kind === 'tokens' && held.expiresAtMs - REFRESH_MARGIN_MS <= this.now()) {
      if (!(await this.refresh())) return undefined;
      held = this.store.load();
    }
    if (!held) return undefined;
    return held.kind === 'apiKey' ? { 'X-API-Key': held.apiKey } : { Authorization: `Bearer ${held.accessToken}` };
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    const headers = await this.authHeaders();
    if (!headers) return this.signedOut();
    const answer = await this.raw<T>(method, path, body, headers);
    // A token the server ended early (logout elsewhere, key rotation): one refresh, one retry.
    if (answer.status === 401 && this.store.load()?.kind === 'tokens' && (await this.refresh())) {
      const again = await this.authHeaders();
      if (again) {
        const retried = await this.raw<T>(method, path, body, again);
        if (retried.status !== 401) return retried;
      }
    }
    if (answer.status === 401) return this.signedOut();
    return answer;
  }

  private signedOut<T>(): ApiResult<T> {
    this.store.clear();
    this.onSignedOut();
    return { ok: false, status: 401, message: 'signed out: please sign in again' };
  }

  /** One refresh at a time: parallel requests wait for the same one (the refresh token rotates). */
  private refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      const held = this.store.load();
      if (held?.kind !== 'tokens') return false;
      const answer = await this.raw<TokenAnswer>('POST', '/v1/auth/refresh', { refreshToken: held.refreshToken }, {});
      if (!answer.ok) return false;
      this.keepTokens(answer.body);
      return true;
    })().finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private keepTokens(answer: TokenAnswer): void {
    this.store.save({
      kind: 'tokens',
      username: answer.username,
      accessToken: answer.accessToken,
      refreshToken: answer.refreshToken,
      expiresAtMs: this.now() + answer.expiresIn * 1000,
    });
  }

  private async raw<T>(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<ApiResult<T>> {
    let response: Response;
    try {
      response = await this.fetchImpl(path, {
        method,
        headers: { Accept: 'application/json', ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    } catch (error) {
      return { ok: false, status: 0, message: `the gateway did not answer (${error instanceof Error ? error.message : String(error)})` };
    }
    const text = await response.text();
    let parsed: unknown = undefined;
    if (text !== '') {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    if (response.ok) return { ok: true, status: response.status, body: parsed as T };
    return { ok: false, status: response.status, message: errorMessage(parsed, response.status) };
  }
}

/** The ErrorResponse's message and its details (interface.md 2.1), or the status when there is none. */
export function errorMessage(body: unknown, status: number): string {
  if (typeof body === 'object' && body !== null) {
    const { message, messages } = body as { message?: unknown; messages?: unknown };
    const details = Array.isArray(messages) ? messages.filter((m): m is string => typeof m === 'string') : [];
    if (typeof message === 'string' && message !== '') return details.length > 0 ? `${message}: ${details.join('; ')}` : message;
  }
  return `HTTP ${status}`;
}
