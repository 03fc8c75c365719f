import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './geo-math.js';

/** One SMS or e-mail as the notifier's development outbox keeps it (notifier README, "Messages"). */
export interface OutboxMessage {
  messageId: string;
  channel: 'sms' | 'email';
  recipient: string;
  subject: string;
  text: string;
}

function read(dir: string): OutboxMessage[] {
  const file = join(dir, 'messages.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim().length > 0)
    .map((line) => JSON.parse(line) as OutboxMessage);
}

/**
 * The e2e stack's stand-in for a phone and a mailbox: without SMTP and SMS providers the notifier
 * appends every message to messages.jsonl in NOTIFIER_DEV_OUTBOX_DIR, where a user reads codes and links.
 */
export function waitForMessage(dir: string, recipient: string, channel: 'sms' | 'email', timeoutMs = 30_000): Promise<OutboxMessage> {
  return eventually(async () => read(dir).find((m) => m.recipient === recipient && m.channel === channel), `an ${channel} to ${recipient}`, timeoutMs);
}
