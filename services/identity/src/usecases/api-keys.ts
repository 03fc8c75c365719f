import { conflict, forbidden, invalidCredentials, notFound, validation } from '../errors.js';
import { text, uuid } from '../domain/fields.js';
import type { Principal } from '@stormhook/access';
import { canSignIn } from '../domain/user.js';
import type { AccessChangePublisher } from '../ports/access-changes.js';
import type { Clock } from '../ports/clock.js';
import type { AccountRepository, ApiKeyRecord, ApiKeyRepository, UserRepository } from '../ports/repositories.js';
import { fail, ok, type Result } from '../result.js';
import { formatApiKey, maskApiKey, parseApiKey } from '../security/api-key-format.js';
import { constantTimeEqual, randomId, randomToken, sha256 } from '../security/secrets.js';
import { mayWrite } from './access.js';

export interface CreateApiKeyInput {
  /** Whose key; default the caller. */
  userId?: unknown;
  /** A label for lists ("billing export"). */
  name: unknown;
  /** Epoch milliseconds; absent: until revoked. */
  expiresAt?: unknown;
}

/** Answered once, at creation: the key itself is never stored nor shown again. */
export interface CreatedApiKey {
  keyId: string;
  name: string;
  key: string;
  createdAt: Date;
  expiresAt?: Date;
}

export interface ApiKeyView {
  keyId: string;
  name: string;
  /** `shk_<id>_****<last 4>`. */
  maskedKey: string;
  createdAt: Date;
  expiresAt?: Date;
  lastUsedAt?: Date;
  revoked: boolean;
}

export interface ApiKeyPorts {
  users: UserRepository;
  accounts: AccountRepository;
  apiKeys: ApiKeyRepository;
  accessChanges: AccessChangePublisher;
  clock: Clock;
}

export interface ApiKeyOptions {
  /** Live keys per user; default 10, so a leaked token cannot mint keys without bound. */
  maxKeysPerUser?: number;
}

const NOT_MACHINE = 'API keys are for users with role API_USER';

function view(record: ApiKeyRecord): ApiKeyView {
  return {
    keyId: record.keyId,
    name: record.name,
    maskedKey: maskApiKey(record.keyId, record.hint),
    createdAt: record.createdAt,
    ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    ...(record.lastUsedAt ? { lastUsedAt: record.lastUsedAt } : {}),
    revoked: record.revokedAt !== undefined,
  };
}

export interface VerifiedApiKey {
  principal: Principal;
  keyId: string;
  /** Absent: until revoked. */
  expiresAt?: Date;
}

/**
 * API keys for machine clients (role API_USER), created, listed and revoked by their owner or an
 * ADMIN. Keys are random 256-bit secrets, so a SHA-256 of them is safe to store and fast to check on
 * every request (a password hash would cost 100 ms per call).
 */
export class ApiKeys {
  private readonly maxKeys: number;

  constructor(
    private readonly ports: ApiKeyPorts,
    options: ApiKeyOptions = {},
  ) {
    this.maxKeys = options.maxKeysPerUser ?? 10;
  }

  private async owner(actor: Principal, raw: unknown): Promise<Result<string>> {
    const userId = raw === undefined || raw === null ? { ok: true as const, value: actor.userId } : uuid('userId', raw);
    if (!userId.ok) return userId;
    if (!mayWrite(actor, userId.value)) return fail(notFound('user'));
    return userId;
  }

  async create(actor: Principal, input: CreateApiKeyInput): Promise<Result<CreatedApiKey>> {
    const { ports } = this;
    const userId = await this.owner(actor, input.userId);
    if (!userId.ok) return userId;
    const name = text('name', input.name ?? 'API key', { min: 1, max: 100 });
    if (!name.ok) return name;
    const now = ports.clock.now();
    let expiresAt: Date | undefined;
    if (input.expiresAt !== undefined && input.expiresAt !== null) {
      if (typeof input.expiresAt !== 'number' || !Number.isInteger(input.expiresAt) || input.expiresAt <= now.getTime()) {
        return fail(validation('expiresAt', 'must be a future time in epoch milliseconds'));
      }
      expiresAt = new Date(input.expiresAt);
    }
    const user = await ports.users.findById(userId.value);
    if (!user) return fail(notFound('user'));
    if (user.role !== 'API_USER') return fail(forbidden(NOT_MACHINE));
    const live = (await ports.apiKeys.listByUser(user.userId)).filter((k) => !k.revokedAt && (!k.expiresAt || k.expiresAt > now));
    if (live.length >= this.maxKeys) return fail(conflict(`At most ${this.maxKeys} live API keys per user; revoke one first`));

    const keyId = randomId(8);
    const secret = randomToken(32);
    await ports.apiKeys.insert({
      keyId,
      userId: user.userId,
      name: name.value,
      secretHash: sha256(secret),
      hint: secret.slice(-4),
      createdAt: now,
      ...(expiresAt ? { expiresAt } : {}),
    });
    // Counted again after the insert: the check above races with parallel creations (FerretDB has no
    // atomic conditional write). A racer that sees more than the cap takes its own key out again. The
    // last kept key saw every other kept key (they were inserted before it and are never taken out),
    // so at most maxKeys stay; a burst may refuse more than needed, never admit more (as AttemptLimiter).
    const liveNow = (await ports.apiKeys.listByUser(user.userId)).filter((k) => !k.revokedAt && (!k.expiresAt || k.expiresAt > now));
    if (liveNow.length > this.maxKeys) {
      await ports.apiKeys.remove(keyId);
      return fail(conflict(`At most ${this.maxKeys} live API keys per user; revoke one first`));
    }
    await ports.accessChanges.changed(user.userId, 'API_KEY_CREATED', keyId);
    return ok({ keyId, name: name.value, key: formatApiKey(keyId, secret), createdAt: now, ...(expiresAt ? { expiresAt } : {}) });
  }

  async list(actor: Principal, userIdRaw?: unknown): Promise<Result<ApiKeyView[]>> {
    const userId = await this.owner(actor, userIdRaw);
    if (!userId.ok) return userId;
    return ok((await this.ports.apiKeys.listByUser(userId.value)).map(view));
  }

  async revoke(actor: Principal, input: { keyId: unknown }): Promise<Result<{ keyId: string; revoked: true }>> {
    const { ports } = this;
    if (typeof input.keyId !== 'string' || !/^[0-9a-f]{16,64}$/.test(input.keyId)) return fail(validation('keyId', 'must be a key id'));
    const record = await ports.apiKeys.findById(input.keyId);
    if (!record || !mayWrite(actor, record.userId)) return fail(notFound('api-key'));
    if (record.revokedAt) return ok({ keyId: record.keyId, revoked: true });
    await ports.apiKeys.revoke(record.keyId, record.userId, ports.clock.now());
    // The gateways drop the key from their caches at once instead of trusting it until their cache expires.
    await ports.accessChanges.changed(record.userId, 'API_KEY_REVOKED', record.keyId);
    return ok({ keyId: record.keyId, revoked: true });
  }

  /** The principal of an `X-API-Key` value. Every failure is the same 401, so keys cannot be probed. */
  async verify(rawKey: unknown): Promise<Result<Principal>> {
    const verified = await this.verifyKey(rawKey);
    return verified.ok ? ok(verified.value.principal) : verified;
  }

  /** {@link verify}, plus the key's id and expiry so a cache can drop it on revocation and at expiry. */
  async verifyKey(rawKey: unknown): Promise<Result<VerifiedApiKey>> {
    const { ports } = this;
    const rejected: Result<VerifiedApiKey> = fail(invalidCredentials('Invalid API key'));
    const parsed = typeof rawKey === 'string' ? parseApiKey(rawKey) : undefined;
    if (!parsed) return rejected;
    const record = await ports.apiKeys.findById(parsed.id);
    if (!record || !constantTimeEqual(sha256(parsed.secret), record.secretHash)) return rejected;
    const now = ports.clock.now();
    if (record.revokedAt || (record.expiresAt && record.expiresAt.getTime() <= now.getTime())) return rejected;
    const user = await ports.users.findById(record.userId);
    // A user promoted away from API_USER keeps their keys on record, but they stop working.
    if (!user || !canSignIn(user.status) || user.role !== 'API_USER') return rejected;
    const account = await ports.accounts.findByUserId(user.userId);
    await ports.apiKeys.touch(record.keyId, now, 60_000);
    return ok({
      principal: { userId: user.userId, role: user.role, username: user.username, via: 'api-key', ...(account ? { accountId: account.id } : {}) },
      keyId: record.keyId,
      ...(record.expiresAt ? { expiresAt: record.expiresAt } : {}),
    });
  }
}
