import { snapshotFromMessage, type AccessSnapshot } from '@stormhook/access';
import type { GrpcClient } from '@stormhook/grpc';
import type { identityV1 } from '@stormhook/proto';
import { DependencyUnavailableError } from '../ports/dependency.js';
import type { EntitlementSource } from '../ports/entitlement-source.js';

export type IdentityClient = Pick<GrpcClient<typeof identityV1.IdentityService>, 'getAccessSnapshot'>;

/** The owner's access snapshot by account (identity's GetAccessSnapshot, the gateway's own source). */
export class GrpcEntitlementSource implements EntitlementSource {
  constructor(private readonly client: IdentityClient) {}

  async ownerOf(accountId: string): Promise<AccessSnapshot | undefined> {
    let answer: identityV1.AccessSnapshot;
    try {
      answer = await this.client.getAccessSnapshot({ userId: '', accountId });
    } catch (error) {
      throw new DependencyUnavailableError('identity', `identity did not answer GetAccessSnapshot: ${(error as Error).message}`, { cause: error });
    }
    return snapshotFromMessage(answer);
  }
}
