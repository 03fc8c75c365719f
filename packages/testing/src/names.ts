import { randomBytes } from 'node:crypto';

/**
 * A fresh name for a database, topic prefix or consumer group, so that integration tests never see
 * each other's data nor that of a stack running beside them.
 */
export function uniqueName(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
