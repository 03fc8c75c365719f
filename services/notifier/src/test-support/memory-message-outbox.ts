import type { MessageLog, MessageLogEntry } from '../ports/message-log.js';
import type { ClaimResult, MessageOutbox, QueuedMessage } from '../ports/message-outbox.js';

/** The message outbox port in memory, with unique claims like the database's. */
export class MemoryMessageOutbox implements MessageOutbox {
  readonly entries = new Map<string, QueuedMessage>();
  readonly leases = new Map<string, { holder: string; expiresAt: Date }>();

  async enqueue(entry: QueuedMessage): Promise<boolean> {
    if (this.entries.has(entry.message.messageId)) return false;
    this.entries.set(entry.message.messageId, structuredClone(entry));
    return true;
  }
  async due(now: Date, limit: number): Promise<QueuedMessage[]> {
    return [...this.entries.values()]
      .filter((e) => e.nextAttemptAt.getTime() <= now.getTime())
      .slice(0, limit)
      .map((e) => structuredClone(e));
  }
  async claim(messageId: string, attempt: number, holder: string, now: Date, until: Date): Promise<ClaimResult> {
    const id = `${messageId}#${attempt}`;
    const lease = this.leases.get(id);
    if (lease) return lease.expiresAt.getTime() <= now.getTime() ? 'expired' : 'taken';
    this.leases.set(id, { holder, expiresAt: until });
    return 'claimed';
  }
  async reschedule(messageId: string, attempts: number, nextAttemptAt: Date): Promise<void> {
    const entry = this.entries.get(messageId);
    if (entry) Object.assign(entry, { attempts, nextAttemptAt });
  }
  async remove(messageId: string): Promise<void> {
    this.entries.delete(messageId);
  }
}

export class MemoryMessageLog implements MessageLog {
  readonly entries = new Map<string, MessageLogEntry>();
  async get(id: string): Promise<MessageLogEntry | null> {
    return this.entries.get(id) ?? null;
  }
  async save(entry: MessageLogEntry): Promise<void> {
    this.entries.set(entry.messageId, entry);
  }
}
