import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Kafka } from 'kafkajs';
import type { Logger } from '@stormhook/logger';
import { withAdmin } from './admin.js';

/**
 * A consumer group of one replica's own, for a broadcast: every replica must read every record (an
 * in-memory index, read models, a cache to invalidate) instead of sharing the work as a service's
 * one group does. Named `<base>.<purpose>.<replica>`, under the service's group name, so the
 * principal's group ACL (GROUP_ACCESS, by prefix) covers it. A replica deletes its groups when it
 * stops ({@link deleteReplicaGroups}) so throw-away groups do not pile up on the broker; one that
 * dies without stopping leaves its group to expire with the broker's offsets.retention.minutes.
 */
export function replicaGroup(base: string, purpose: string, replica: string): string {
  if (base === '' || purpose === '' || replica === '') throw new Error('a replica group needs a base, a purpose and a replica name');
  return `${base}.${purpose}.${replica}`;
}

/** This process's replica name when none is configured: host, pid and a random part, so two processes on one host differ. */
export function replicaName(): string {
  return `${hostname().replace(/[^A-Za-z0-9._-]/g, '-')}-${process.pid}-${randomBytes(3).toString('hex')}`;
}

/**
 * Deletes a stopped replica's broadcast groups (broker ids, prefix included). Best effort: a group
 * left behind only waits for the broker's retention, so a failure is logged at debug and not thrown.
 */
export async function deleteReplicaGroups(kafka: Kafka, groupIds: readonly string[], logger?: Logger): Promise<void> {
  for (const groupId of groupIds) {
    await withAdmin(kafka, (admin) => admin.deleteGroups([groupId])).catch((error: unknown) =>
      logger?.debug({ err: error, groupId }, 'replica group not deleted'),
    );
  }
}
