import type { OneTimeTokenPurpose, OneTimeTokenRepository } from '../ports/repositories.js';
import { randomToken, sha256 } from '../security/secrets.js';

/**
 * Issues a single-use token for `purpose`, superseding the user's earlier unused ones of that purpose
 * (only the newest e-mail works). Stored as a hash; the token itself goes only into the message.
 */
export async function issueOneTimeToken(
  repo: OneTimeTokenRepository,
  userId: string,
  purpose: OneTimeTokenPurpose,
  ttlMs: number,
  now: Date,
): Promise<{ token: string; expiresAt: Date }> {
  await repo.invalidateAll(userId, now, purpose);
  const token = randomToken(32);
  const expiresAt = new Date(now.getTime() + ttlMs);
  await repo.insert({ tokenHash: sha256(token), userId, purpose, createdAt: now, expiresAt });
  return { token, expiresAt };
}
