import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt, the password hash stored before Argon2id: `$scrypt$ln=17,r=8,p=1$<salt b64>$<hash b64>`.
 * Only verified now (the login that verifies one re-hashes it with Argon2id); {@link hashScrypt}
 * exists so tests can make such records.
 */
export interface ScryptParams {
  ln: number;
  r: number;
  p: number;
}

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

export interface ParsedScrypt {
  params: ScryptParams;
  salt: Buffer;
  hash: Buffer;
}

export function isScryptPhc(phc: string): boolean {
  return phc.startsWith('$scrypt$');
}

/** What one derivation allocates: 128·N·r bytes (N = 2^ln). */
export function scryptMemoryBytes(params: ScryptParams): number {
  return 128 * 2 ** params.ln * params.r;
}

export function parseScrypt(phc: string): ParsedScrypt | undefined {
  const m = PHC.exec(phc);
  if (!m) return undefined;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Bounds keep a tampered record from making verify allocate gigabytes.
  if (params.ln < 1 || params.ln > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return undefined;
  const hash = Buffer.from(m[5] ?? '', 'base64');
  if (hash.length === 0) return undefined;
  return { params, salt: Buffer.from(m[4] ?? '', 'base64'), hash };
}

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  // Node refuses above maxmem (32 MiB by default), and N=2^17 needs 128 MiB.
  const options: ScryptOptions = { N: 2 ** params.ln, r: params.r, p: params.p, maxmem: scryptMemoryBytes(params) * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function verifyScrypt(password: string, parsed: ParsedScrypt): Promise<boolean> {
  const candidate = await derive(password, parsed.salt, parsed.params, parsed.hash.length);
  return timingSafeEqual(candidate, parsed.hash);
}

export async function hashScrypt(password: string, params: ScryptParams): Promise<string> {
  const salt = randomBytes(16);
  const hash = await derive(password, salt, params, 32);
  const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');
  return `$scrypt$ln=${params.ln},r=${params.r},p=${params.p}$${b64(salt)}$${b64(hash)}`;
}
