import { isDuplicateKeyError } from '@stormhook/mongo';
import type { Collection, Filter, UpdateFilter } from 'mongodb';
import type { Account, PhoneActivation } from '../domain/account.js';
import { isCountryCode } from '@stormhook/access';
import type { Subscription } from '../domain/subscription.js';
import type { AccountProfilePatch, AccountRepository, InsertOutcome } from '../ports/repositories.js';
import { compact, type AccountDoc, type SubscriptionDoc } from './documents.js';

const NO_SUBSCRIPTION: Subscription = { plan: 'NONE', geographicBoundaries: [], limits: {} };

function toSubscriptionDoc(accountId: string, userId: string, s: Subscription, now: Date): SubscriptionDoc {
  return compact({
    _id: accountId,
    userId,
    plan: s.plan,
    expiresAt: s.expiresAt,
    geographicBoundaries: s.geographicBoundaries.map((b) => compact({ ...b })),
    limits: s.limits,
    updatedAt: now,
  });
}

function toSubscription(doc: SubscriptionDoc | undefined | null): Subscription {
  if (!doc) return NO_SUBSCRIPTION;
  return compact({
    plan: doc.plan,
    expiresAt: doc.expiresAt,
    // A stored country we no longer serve grants nothing rather than failing the read.
    geographicBoundaries: doc.geographicBoundaries.flatMap((b) => (isCountryCode(b.country) ? [compact({ country: b.country, region: b.region })] : [])),
    limits: doc.limits,
    grantedAt: doc.updatedAt,
  });
}

function toAccountDoc(account: Account): AccountDoc {
  const { id, subscription: _s, subscriptionPlan: _p, ...rest } = account;
  return compact({ _id: id, ...rest });
}

function toAccount(doc: AccountDoc, subscriptionDoc: SubscriptionDoc | undefined | null): Account {
  const { _id, ...rest } = doc;
  const subscription = toSubscription(subscriptionDoc);
  return compact({ id: _id, ...rest, subscriptionPlan: subscription.plan, subscription });
}

export class MongoAccountRepository implements AccountRepository {
  constructor(
    private readonly accounts: Collection<AccountDoc>,
    private readonly subscriptions: Collection<SubscriptionDoc>,
  ) {}

  private async withSubscription(doc: AccountDoc | null): Promise<Account | undefined> {
    if (!doc) return undefined;
    return toAccount(doc, await this.subscriptions.findOne({ _id: doc._id }));
  }

  /** The account first: a start that stops before the subscription leaves an account on plan NONE, never an orphan plan. */
  async insert(account: Account): Promise<InsertOutcome> {
    try {
      await this.accounts.insertOne(toAccountDoc(account));
    } catch (error) {
      if (isDuplicateKeyError(error)) return 'duplicate';
      throw error;
    }
    await this.subscriptions.replaceOne({ _id: account.id }, toSubscriptionDoc(account.id, account.userId, account.subscription, account.createdAt), {
      upsert: true,
    });
    return 'inserted';
  }

  async findById(accountId: string): Promise<Account | undefined> {
    return this.withSubscription(await this.accounts.findOne({ _id: accountId }));
  }

  async findByUserId(userId: string): Promise<Account | undefined> {
    return this.withSubscription(await this.accounts.findOne({ userId }));
  }

  async findByUserIds(userIds: readonly string[]): Promise<Account[]> {
    if (userIds.length === 0) return [];
    const docs = await this.accounts.find({ userId: { $in: [...userIds] } }).toArray();
    const subscriptions = await this.subscriptions.find({ _id: { $in: docs.map((d) => d._id) } }).toArray();
    const byId = new Map(subscriptions.map((s) => [s._id, s]));
    return docs.map((doc) => toAccount(doc, byId.get(doc._id)));
  }

  private async apply(filter: Filter<AccountDoc>, update: UpdateFilter<AccountDoc>): Promise<Account | undefined> {
    return this.withSubscription(await this.accounts.findOneAndUpdate(filter, update, { returnDocument: 'after' }));
  }

  /**
   * A new phone number must lose its verification in the same write that stores it, or a crash in
   * between would leave an unverified number marked verified. So the write is chosen by matching on
   * the stored number: "differs" also resets verification, "same" does not; a concurrent change that
   * makes neither match is retried.
   */
  async updateProfile(accountId: string, patch: AccountProfilePatch, now: Date): Promise<Account | undefined> {
    const set: Record<string, unknown> = { updatedAt: now };
    const unset: Record<string, ''> = {};
    for (const [field, value] of Object.entries(patch)) {
      if (value === undefined) continue;
      if (value === null) unset[field] = '';
      else set[field] = value;
    }
    const update = (extraSet: Record<string, unknown>, extraUnset: Record<string, ''>): UpdateFilter<AccountDoc> => {
      const u: Record<string, unknown> = { $set: { ...set, ...extraSet } };
      const allUnset = { ...unset, ...extraUnset };
      if (Object.keys(allUnset).length > 0) u['$unset'] = allUnset;
      return u as UpdateFilter<AccountDoc>;
    };
    if (patch.mobilePhoneNumber === undefined) return this.apply({ _id: accountId }, update({}, {}));

    const phone = patch.mobilePhoneNumber;
    const differs: Filter<AccountDoc> = phone === null ? { mobilePhoneNumber: { $exists: true } } : { mobilePhoneNumber: { $ne: phone } };
    const same: Filter<AccountDoc> = phone === null ? { mobilePhoneNumber: { $exists: false } } : { mobilePhoneNumber: phone };
    for (let attempt = 0; attempt < 3; attempt++) {
      const changed = await this.apply({ _id: accountId, ...differs }, update({ mobilePhoneNumberVerified: false }, { phoneActivation: '' }));
      if (changed) return changed;
      const unchanged = await this.apply({ _id: accountId, ...same }, update({}, {}));
      if (unchanged) return unchanged;
      if ((await this.accounts.countDocuments({ _id: accountId }, { limit: 1 })) === 0) return undefined;
    }
    throw new Error(`account ${accountId} changed concurrently three times; giving up`);
  }

  async setSubscription(accountId: string, subscription: Subscription, now: Date): Promise<Account | undefined> {
    const account = await this.accounts.findOne({ _id: accountId });
    if (!account) return undefined;
    const doc = toSubscriptionDoc(accountId, account.userId, subscription, now);
    await this.subscriptions.replaceOne({ _id: accountId }, doc, { upsert: true });
    return toAccount(account, doc);
  }

  startPhoneActivation(accountId: string, activation: PhoneActivation, now: Date): Promise<Account | undefined> {
    // Only for the number the code is for: a number changed meanwhile gets no stale code.
    return this.apply({ _id: accountId, mobilePhoneNumber: activation.phoneNumber }, { $set: { phoneActivation: activation, updatedAt: now } });
  }

  completePhoneActivation(accountId: string, phoneNumber: string, now: Date): Promise<Account | undefined> {
    return this.apply(
      { _id: accountId, mobilePhoneNumber: phoneNumber, 'phoneActivation.phoneNumber': phoneNumber },
      { $set: { mobilePhoneNumberVerified: true, updatedAt: now }, $unset: { phoneActivation: '' } },
    );
  }
}
