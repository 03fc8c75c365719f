import type { Collection, Db } from 'mongodb';
import type { MessageLog, MessageLogEntry } from '../ports/message-log.js';
import { COLLECTIONS } from './collections.js';

type MessageDocument = Omit<MessageLogEntry, 'messageId'> & { _id: string };

export class MongoMessageLog implements MessageLog {
  private readonly collection: Collection<MessageDocument>;

  constructor(db: Db) {
    this.collection = db.collection<MessageDocument>(COLLECTIONS.messages);
  }

  async get(messageId: string): Promise<MessageLogEntry | null> {
    const doc = await this.collection.findOne({ _id: messageId });
    if (!doc) return null;
    const { _id, ...rest } = doc;
    return { messageId: _id, ...rest };
  }

  async save(entry: MessageLogEntry): Promise<void> {
    const { messageId, ...rest } = entry;
    await this.collection.replaceOne({ _id: messageId }, rest, { upsert: true });
  }
}
