/**
 * How the console proves who it is: the access and refresh tokens of POST /v1/auth/login, or an API
 * key (X-API-Key). Kept in sessionStorage, so a closed tab forgets them and another origin never sees them.
 */
export type Credentials =
  { kind: 'tokens'; username: string; accessToken: string; refreshToken: string; expiresAtMs: number } | { kind: 'apiKey'; apiKey: string };

const KEY = 'stormhook.console.credentials';

export interface CredentialStore {
  load(): Credentials | undefined;
  save(credentials: Credentials): void;
  clear(): void;
}

/** The browser's session storage; a malformed entry is dropped rather than trusted. */
export function sessionCredentialStore(storage: Storage = sessionStorage): CredentialStore {
  return {
    load() {
      const text = storage.getItem(KEY);
      if (!text) return undefined;
      try {
        const value = JSON.parse(text) as Partial<Credentials> & Record<string, unknown>;
        if (value.kind === 'apiKey' && typeof value['apiKey'] === 'string') return { kind: 'apiKey', apiKey: value['apiKey'] };
        if (
          value.kind === 'tokens' &&
          typeof value['accessToken'] === 'string' &&
          typeof value['refreshToken'] === 'string' &&
          typeof value['expiresAtMs'] === 'number'
        ) {
          return {
            kind: 'tokens',
            username: String(value['username'] ?? ''),
            accessToken: value['accessToken'],
            refreshToken: value['refreshToken'],
            expiresAtMs: value['expiresAtMs'],
          };
        }
      } catch {
        // not JSON: forget it below
      }
      storage.removeItem(KEY);
      return undefined;
    },
    save(credentials) {
      storage.setItem(KEY, JSON.stringify(credentials));
    },
    clear() {
      storage.removeItem(KEY);
    },
  };
}

/** In memory only: for the specs, and a browser that refuses storage. */
export function memoryCredentialStore(): CredentialStore {
  let held: Credentials | undefined;
  return {
    load: () => held,
    save: (credentials) => {
      held = credentials;
    },
    clear: () => {
      held = undefined;
    },
  };
}
