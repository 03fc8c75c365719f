import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { SlotClaim, SlotLedger } from '../ports/slot-ledger.js';
import { COLLECTIONS } from './collections.js';

type SlotDocument = Omit<SlotClaim, 'claimId'> & { _id: string };

const fromDocument = ({ _id, ...rest }: SlotDocument): SlotClaim => ({ claimId: _id, ...rest });

export class MongoSlotLedger implements SlotLedger {
  private readonly collection: Collection<SlotDocument>;

  constructor(db: Db) {
    this.collection = db.collection<SlotDocument>(COLLECTIONS.forecastSlots);
  }

  async claim(claim: SlotClaim): Promise<boolean> {
    const { claimId, ...rest } = claim;
    try {
      await this.collection.insertOne({ _id: claimId, ...rest });
      return true;
    } catch (error) {
      if (isDuplicateKeyError(error)) return false;
      throw error;
    }
  }

  async claimsOf(slotId: string): Promise<SlotClaim[]> {
    const docs = await this.collection.find({ slotId }).sort({ claimedAtMs: 1 }).toArray();
    return docs.map(fromDocument);
  }

  async finish(claimId: string, result: { finishedAtMs: number; registrations: number; notifications: number; forecastRunId?: string }): Promise<void> {
    // Only the claim's owner writes it, so a plain update is safe here.
    await this.collection.updateOne({ _id: claimId }, { $set: { status: 'done', ...result } });
  }
}
