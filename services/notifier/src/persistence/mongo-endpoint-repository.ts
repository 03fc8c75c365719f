import type { Collection, Db } from 'mongodb';
import { isDuplicateKeyError } from '@stormhook/mongo';
import type { WebhookEndpoint } from '../domain/endpoint.js';
import type { EndpointRepository } from '../ports/endpoint-repository.js';
import type { CredentialCipher } from '../security/credential-cipher.js';
import { COLLECTIONS } from './collections.js';
import { fromEndpointDocument, toEndpointDocument, type EndpointDocument } from './endpoint-document.js';

export class MongoEndpointRepository implements EndpointRepository {
  private readonly collection: Collection<EndpointDocument>;

  constructor(
    db: Db,
    private readonly cipher: CredentialCipher,
  ) {
    this.collection = db.collection<EndpointDocument>(COLLECTIONS.endpoints);
  }

  async findByAccount(accountId: string): Promise<WebhookEndpoint | null> {
    const doc = await this.collection.findOne({ accountId });
    return doc ? fromEndpointDocument(doc, this.cipher) : null;
  }

  async findById(endpointId: string): Promise<WebhookEndpoint | null> {
    const doc = await this.collection.findOne({ _id: endpointId });
    return doc ? fromEndpointDocument(doc, this.cipher) : null;
  }

  async insert(endpoint: WebhookEndpoint): Promise<'inserted' | 'duplicate'> {
    try {
      await this.collection.insertOne(toEndpointDocument(endpoint, this.cipher));
      return 'inserted';
    } catch (error) {
      if (isDuplicateKeyError(error)) return 'duplicate';
      throw error;
    }
  }

  async save(endpoint: WebhookEndpoint): Promise<void> {
    const { _id, ...rest } = toEndpointDocument(endpoint, this.cipher);
    await this.collection.updateOne({ _id }, { $set: rest });
  }

  async setFailingSince(endpointId: string, failingSince: Date | null): Promise<void> {
    await this.collection.updateOne({ _id: endpointId }, { $set: { failingSince } });
  }

  async disable(endpointId: string, reason: string, at: Date): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: endpointId, status: 'enabled' },
      { $set: { status: 'disabled', disabledReason: reason, disabledAt: at, updatedAt: at } },
    );
    return result.modifiedCount > 0;
  }
}
