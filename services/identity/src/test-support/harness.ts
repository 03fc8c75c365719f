import { connectMongo, databaseName, type MongoHandle } from '@stormhook/mongo';
import { testInfra, uniqueName } from '@stormhook/testing';
import { type Principal, type ResolvedLocation, type Role } from '@stormhook/access';
import type { MessageRequest } from '../domain/message-request.js';
import type { Clock } from '../ports/clock.js';
import type { AccessChange, AccessChangePublisher } from '../ports/access-changes.js';
import type { GeoResolver } from '../ports/geo-resolver.js';
import type { MessagePublisher } from '../ports/message-publisher.js';
import type { IdentityRepositories } from '../ports/repositories.js';
import { ensureIdentityIndexes } from '../persistence/collections.js';
import { createMongoRepositories } from '../persistence/create-repositories.js';
import { generateSigningKey } from '../security/jwt.js';
import { PasswordHasher } from '../security/password-hasher.js';
import { createIdentityUseCases, type IdentityDependencies, type IdentityUseCases } from '../usecases/create-use-cases.js';

/** A clock tests move by hand; starts at the real time so stored dates look sensible. */
export class ManualClock implements Clock {
  private at = Date.now();
  now(): Date {
    return new Date(this.at);
  }
  advance(ms: number): void {
    this.at += ms;
  }
}

/** Records access change events instead of publishing them. */
export class RecordingAccessChanges implements AccessChangePublisher {
  readonly changes: Array<{ userId: string; change: AccessChange; apiKeyId?: string }> = [];
  async changed(userId: string, change: AccessChange, apiKeyId?: string): Promise<void> {
    this.changes.push({ userId, change, ...(apiKeyId ? { apiKeyId } : {}) });
  }
}

/** Records message requests instead of sending them; `failNext` simulates a broker outage. */
export class RecordingPublisher implements MessagePublisher {
  readonly sent: MessageRequest[] = [];
  failNext = false;
  async publish(request: MessageRequest): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('broker unavailable');
    }
    this.sent.push(request);
  }
  last(): MessageRequest {
    const message = this.sent.at(-1);
    if (!message) throw new Error('no message was published');
    return message;
  }
}

export class MapGeo implements GeoResolver {
  constructor(private readonly places: ReadonlyArray<{ lat: number; lng: number; at: ResolvedLocation }> = []) {}
  async resolve(point: { lat: number; lng: number }): Promise<ResolvedLocation | undefined> {
    return this.places.find((p) => p.lat === point.lat && p.lng === point.lng)?.at;
  }
}

export const LINK_ORIGIN = 'https://app.stormhook.test';

export interface Harness {
  mongo: MongoHandle;
  repos: IdentityRepositories;
  uc: IdentityUseCases;
  clock: ManualClock;
  messages: RecordingPublisher;
  accessChanges: RecordingAccessChanges;
  /** Creates an ACTIVE user with a password and returns it as a principal. */
  user(role: Role, username?: string, password?: string): Promise<Principal & { password: string }>;
  close(): Promise<void>;
}

/**
 * Identity over a real MongoDB-protocol database (FerretDB in development), in a fresh database that
 * `close` drops. Hashing is cheap (Argon2id with 1 MiB) so that tests create users by the dozen; the full cost
 * is covered once by the hasher's own spec.
 */
/** Argon2id at a test cost: 1 MiB, 1 pass. */
export const TEST_ARGON2 = { memoryKiB: 1024, iterations: 1, parallelism: 1 };

export async function startHarness(name: string, overrides: Partial<IdentityDependencies> = {}): Promise<Harness> {
  const { mongoUrl } = testInfra();
  const dbName = databaseName(
    'identity',
    uniqueName(name)
      .replace(/[^A-Za-z0-9_-]/g, '_')
      .slice(0, 50),
  );
  const mongo = await connectMongo({ url: mongoUrl, dbName, appName: `identity-${name}` });
  await ensureIdentityIndexes(mongo.db);
  const repos = createMongoRepositories(mongo.db);
  const clock = new ManualClock();
  const messages = new RecordingPublisher();
  const accessChanges = new RecordingAccessChanges();
  const uc = createIdentityUseCases({
    repositories: repos,
    signingKey: generateSigningKey(),
    tokenAudience: { issuer: 'stormhook-identity', audience: 'stormhook-api' },
    messages,
    accessChanges,
    geo: new MapGeo(),
    allowedLinkOrigins: [LINK_ORIGIN],
    clock,
    hasher: new PasswordHasher(TEST_ARGON2),
    ...overrides,
  });
  const admin: Principal = { userId: '00000000-0000-4000-8000-000000000000', role: 'ADMIN', username: 'root@stormhook.test', via: 'access-token' };
  let counter = 0;
  return {
    mongo,
    repos,
    uc,
    clock,
    messages,
    accessChanges,
    async user(role, name, pw) {
      const n = ++counter;
      const username = name ?? `user${n}@example.com`;
      const password = pw ?? `password-${n}-ok`;
      const created = await uc.createUser.createUser(admin, { username, firstName: 'Test', lastName: `User ${n}`, role, password });
      if (!created.ok) throw new Error(`cannot create test user: ${created.error.message}`);
      const { userId } = created.value.user;
      return { userId, role, username: created.value.user.username, via: 'access-token', password };
    },
    async close() {
      await mongo.db.dropDatabase();
      await mongo.close();
    },
  };
}

/** Unwraps a Result in tests, failing with the error when it is not ok. */
export function must<T>(result: { ok: true; value: T } | { ok: false; error: { kind: string; message: string } }): T {
  if (!result.ok) throw new Error(`expected ok, got ${result.error.kind}: ${result.error.message}`);
  return result.value;
}
