import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { ClaimResult, MessageOutbox, QueuedMessage } from '../ports/message-outbox.js';
import type { CredentialCipher, EncryptedValue } from '../security/credential-cipher.js';
import { COLLECTIONS } from './collections.js';

/** Recipient, subject and text are encrypted: they hold activation codes and reset links. */
interface OutboxDocument {
  _id: string;
  channel: 'sms' | 'email';
  template: string;
  payload: EncryptedValue;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
}

interface LeaseDocument {
  _id: string;
  holder: string;
  claimedAt: Date;
  expiresAt: Date;
}

const aad = (messageId: string): string => `message_outbox:${messageId}:payload`;

/**
 * The outbox of messages on the notifier's database. Messages are few (resets, activation codes,
 * invitations), so single-document writes are fine here; `due` scans the small outbox, which holds only
 * what is not sent yet.
 */
export class MongoMessageOutbox implements MessageOutbox {
  private readonly outbox: Collection<OutboxDocument>;
  private readonly leases: Collection<LeaseDocument>;

  constructor(
    db: Db,
    private readonly cipher: CredentialCipher,
  ) {
    this.outbox = db.collection<OutboxDocument>(COLLECTIONS.messageOutbox);
    this.leases = db.collection<LeaseDocument>(COLLECTIONS.messageLeases);
  }

  async enqueue(entry: QueuedMessage): Promise<boolean> {
    const { messageId, channel, recipient, subject, text } = entry.message;
    try {
      await this.outbox.insertOne({
        _id: messageId,
        channel,
        template: entry.template,
        payload: this.cipher.encrypt(JSON.stringify({ recipient, subject, text }), aad(messageId)),
        attempts: entry.attempts,
        nextAttemptAt: entry.nextAttemptAt,
        createdAt: entry.createdAt,
      });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async due(now: Date, limit: number): Promise<QueuedMessage[]> {
    const docs = await this.outbox
      .find({ nextAttemptAt: { $lte: now } })
      .sort({ nextAttemptAt: 1 })
      .limit(limit)
      .toArray();
    return docs.map((doc) => {
      const { recipient, subject, text } = JSON.parse(this.cipher.decrypt(doc.payload, aad(doc._id))) as { recipient: string; subject: string; text: string };
      return {
        message: { messageId: doc._id, channel: doc.channel, recipient, subject, text },
        template: doc.template,
        attempts: doc.attempts,
        nextAttemptAt: doc.nextAttemptAt,
        createdAt: doc.createdAt,
      };
    });
  }

  async claim(messageId: string, attempt: number, holder: string, now: Date, until: Date): Promise<ClaimResult> {
    const _id = `${messageId}#${attempt}`;
    try {
      await this.leases.insertOne({ _id, holder, claimedAt: now, expiresAt: until });
      return 'claimed';
    } catch (error) {
      if (!isDuplicateKeyError(error)) throw error;
      const lease = await this.leases.findOne({ _id });
      return lease && lease.expiresAt.getTime() <= now.getTime() ? 'expired' : 'taken';
    }
  }

  async reschedule(messageId: string, attempts: number, nextAttemptAt: Date): Promise<void> {
    await this.outbox.updateOne({ _id: messageId }, { $set: { attempts, nextAttemptAt } });
  }

  async remove(messageId: string): Promise<void> {
    await this.outbox.deleteOne({ _id: messageId });
  }
}
