/**
 * API keys read `shk_<id>_<secret>`: the prefix makes leaked keys findable by secret scanners, the id
 * (hex, so it never contains `_`) finds the stored record, the secret (base64url, may contain `_`) is
 * only ever stored as a hash.
 */
export const API_KEY_PREFIX = 'shk';

export function formatApiKey(id: string, secret: string): string {
  return `${API_KEY_PREFIX}_${id}_${secret}`;
}

export function parseApiKey(key: string): { id: string; secret: string } | undefined {
  const m = /^shk_([0-9a-f]{16,64})_([A-Za-z0-9_-]{32,128})$/.exec(key);
  if (!m || m[1] === undefined || m[2] === undefined) return undefined;
  return { id: m[1], secret: m[2] };
}

/** What lists show: the id and the last four characters, enough to tell keys apart. */
export function maskApiKey(id: string, hint: string): string {
  return `${API_KEY_PREFIX}_${id}_****${hint}`;
}
