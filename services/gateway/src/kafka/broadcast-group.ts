import type { Kafka } from 'kafkajs';
import type { Logger } from '@stormhook/logger';

/**
 * Deletes a replica's throw-away broadcast group once its consumer has stopped, so such groups do not
 * pile up on the broker. A failure is only logged: the broker expires an empty group's offsets anyway.
 */
export async function deleteBroadcastGroup(kafka: Kafka, groupId: string, logger: Logger): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.deleteGroups([groupId]);
  } catch (error) {
    logger.debug({ err: error, groupId }, 'broadcast group not deleted');
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
