import { appendFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MessageSender, MessageSendResult, OutboundMessage } from '../ports/message-sender.js';

/** The file the development adapter appends to, inside its directory. */
export const DEV_OUTBOX_FILE = 'messages.jsonl';

/**
 * Development adapter: every message becomes one JSON line in `<directory>/messages.jsonl`, where a
 * developer reads activation codes and reset links. Never configure it in production: the file holds
 * the codes in clear.
 */
export class DevOutboxSender implements MessageSender {
  /**
   * @param onWritten told after every message, so the developer learns where to read the code or link
   *   the moment it is "sent" (the message itself carries secrets: only its channel and id are passed on).
   */
  constructor(
    private readonly directory: string,
    private readonly onWritten: (notice: { file: string; channel: OutboundMessage['channel']; messageId: string }) => void = () => {},
  ) {}

  get file(): string {
    return join(this.directory, DEV_OUTBOX_FILE);
  }

  async send(message: OutboundMessage): Promise<MessageSendResult> {
    await mkdir(this.directory, { recursive: true });
    await appendFile(this.file, `${JSON.stringify({ ...message, at: new Date().toISOString() })}\n`, 'utf8');
    this.onWritten({ file: this.file, channel: message.channel, messageId: message.messageId });
    return { ok: true, providerId: `dev-${message.messageId}` };
  }
}
