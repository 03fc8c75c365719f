import got from 'got';
import type { MessageSender, MessageSendResult, OutboundMessage } from '../ports/message-sender.js';

export interface HttpSmsOptions {
  /** The gateway's send URL. */
  url: string;
  /** Sent as `Authorization: Bearer <token>`. */
  token: string;
  /** Sender name or number shown to the recipient. */
  sender: string;
  timeoutMs?: number;
}

/**
 * SMS through an HTTP gateway. Request (documented in the README):
 *
 *   POST <url>
 *   Authorization: Bearer <token>
 *   Content-Type: application/json
 *   Idempotency-Key: <messageId>
 *   {"messageId": "...", "from": "<sender>", "to": "+90...", "text": "..."}
 *
 * A 2xx is sent (a JSON `id` in the answer is kept as the provider id); 400/422 are permanent (bad
 * number or text); anything else, timeouts included, may be retried with the same Idempotency-Key.
 */
export class HttpSmsSender implements MessageSender {
  constructor(private readonly options: HttpSmsOptions) {}

  async send(message: OutboundMessage): Promise<MessageSendResult> {
    try {
      const response = await got.post(this.options.url, {
        json: { messageId: message.messageId, from: this.options.sender, to: message.recipient, text: message.text },
        headers: { authorization: `Bearer ${this.options.token}`, 'idempotency-key': message.messageId },
        timeout: { request: this.options.timeoutMs ?? 10_000 },
        retry: { limit: 0 },
        throwHttpErrors: false,
        followRedirect: false,
      });
      if (response.statusCode >= 200 && response.statusCode < 300) {
        let providerId: string | undefined;
        try {
          const id = (JSON.parse(response.body) as { id?: unknown }).id;
          if (typeof id === 'string') providerId = id;
        } catch {
          // the id is optional
        }
        return providerId ? { ok: true, providerId } : { ok: true };
      }
      return { ok: false, permanent: response.statusCode === 400 || response.statusCode === 422, reason: `SMS gateway answered HTTP ${response.statusCode}` };
    } catch (error) {
      return { ok: false, permanent: false, reason: `SMS gateway: ${(error as Error).message}` };
    }
  }
}
