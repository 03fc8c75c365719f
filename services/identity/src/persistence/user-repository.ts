import { isDuplicateKeyError } from '@stormhook/mongo';
import type { Collection, Filter, Sort } from 'mongodb';
import type { User } from '../domain/user.js';
import type { InsertOutcome, UserPageQuery, UserPatch, UserRepository } from '../ports/repositories.js';
import { compact, type UserDoc } from './documents.js';

function toDoc(user: User): UserDoc {
  const { userId, ...rest } = user;
  return compact({ _id: userId, ...rest });
}

function toUser(doc: UserDoc): User {
  const { _id, ...rest } = doc;
  return compact({ userId: _id, ...rest });
}

export class MongoUserRepository implements UserRepository {
  constructor(private readonly users: Collection<UserDoc>) {}

  async insert(user: User): Promise<InsertOutcome> {
    try {
      await this.users.insertOne(toDoc(user));
      return 'inserted';
    } catch (error) {
      if (isDuplicateKeyError(error)) return 'duplicate';
      throw error;
    }
  }

  async findById(userId: string): Promise<User | undefined> {
    const doc = await this.users.findOne({ _id: userId });
    return doc ? toUser(doc) : undefined;
  }

  async findByUsername(username: string): Promise<User | undefined> {
    const doc = await this.users.findOne({ username: username.toLowerCase() });
    return doc ? toUser(doc) : undefined;
  }

  async update(userId: string, patch: UserPatch, now: Date): Promise<User | undefined> {
    const doc = await this.users.findOneAndUpdate({ _id: userId }, { $set: { ...compact(patch), updatedAt: now } }, { returnDocument: 'after' });
    return doc ? toUser(doc) : undefined;
  }

  async endAccessTokens(userId: string, validFrom: Date): Promise<void> {
    // $max, not $set: a slower request ending tokens a second earlier must not revive the ones in between.
    await this.users.updateOne({ _id: userId }, { $max: { accessTokensValidFrom: validFrom } });
  }

  async page(query: UserPageQuery): Promise<{ users: User[]; total: number }> {
    const filter: Filter<UserDoc> = {};
    if (query.roles.length > 0) filter.role = { $in: [...query.roles] };
    if (query.statuses.length > 0) filter.status = { $in: [...query.statuses] };
    // _id last: a stable order, so pages neither repeat nor skip users that tie on the sort fields.
    const sort: Sort = Object.fromEntries([...query.sort.map(([field, dir]) => [field, dir === 'asc' ? 1 : -1]), ['_id', 1]]);
    const [docs, total] = await Promise.all([
      this.users.find(filter).sort(sort).skip(query.skip).limit(query.limit).toArray(),
      this.users.countDocuments(filter),
    ]);
    return { users: docs.map(toUser), total };
  }
}
