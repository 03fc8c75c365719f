import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/** scrypt cost: N = 2^ln. The production default (ln=17, r=8, p=1) follows the OWASP password storage sheet. */
export interface ScryptParams {
  ln: number;
  r: number;
  p: number;
}

export const PRODUCTION_SCRYPT: ScryptParams = { ln: 17, r: 8, p: 1 };

const SALT_BYTES = 16;
const HASH_BYTES = 32;
const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]{16,})\$([A-Za-z0-9+/]{16,})$/;

function derive(password: string, salt: Buffer, params: ScryptParams, length: number): Promise<Buffer> {
  const N = 2 ** params.ln;
  // scrypt needs 128*N*r bytes; Node refuses above maxmem (32 MiB by default), and N=2^17 needs 128 MiB.
  const options: ScryptOptions = { N, r: params.r, p: params.p, maxmem: 128 * N * params.r * 2 };
  return new Promise((resolve, reject) => {
    // The async form runs on the libuv pool, so a 200 ms hash does not stall other requests.
    scrypt(password.normalize('NFC'), salt, length, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (bytes: Buffer): string => bytes.toString('base64').replace(/=+$/, '');

function parse(phc: string): { params: ScryptParams; salt: Buffer; hash: Buffer } | undefined {
  const m = PHC.exec(phc);
  if (!m) return undefined;
  const params = { ln: Number(m[1]), r: Number(m[2]), p: Number(m[3]) };
  // Bounds keep a tampered record from making verify allocate gigabytes.
  if (params.ln < 1 || params.ln > 20 || params.r < 1 || params.r > 32 || params.p < 1 || params.p > 16) return undefined;
  return { params, salt: Buffer.from(m[4] ?? '', 'base64'), hash: Buffer.from(m[5] ?? '', 'base64') };
}

/**
 * scrypt password hashing in PHC string form: `$scrypt$ln=17,r=8,p=1$<salt b64>$<hash b64>`. The cost
 * is a constructor argument so tests can hash cheaply; verify reads the cost from the stored string,
 * so hashes made with any cost keep verifying and {@link needsRehash} tells when to upgrade one.
 */
export class PasswordHasher {
  constructor(private readonly params: ScryptParams = PRODUCTION_SCRYPT) {}

  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const hash = await derive(password, salt, this.params, HASH_BYTES);
    const { ln, r, p } = this.params;
    return `$scrypt$ln=${ln},r=${r},p=${p}$${b64(salt)}$${b64(hash)}`;
  }

  /** False for a mismatch and for a malformed stored string; the comparison is constant-time. */
  async verify(password: string, phc: string): Promise<boolean> {
    const parsed = parse(phc);
    if (!parsed || parsed.hash.length === 0) return false;
    const candidate = await derive(password, parsed.salt, parsed.params, parsed.hash.length);
    return timingSafeEqual(candidate, parsed.hash);
  }

  /** True when the stored hash was made with other parameters than the current ones. */
  needsRehash(phc: string): boolean {
    const parsed = parse(phc);
    if (!parsed) return true;
    const { ln, r, p } = parsed.params;
    return ln !== this.params.ln || r !== this.params.r || p !== this.params.p || parsed.hash.length !== HASH_BYTES;
  }
}
