import type { MessageSender, MessageSendResult, OutboundMessage } from '../ports/message-sender.js';

/** One adapter per channel behind the single MessageSender port. */
export class ChannelRouter implements MessageSender {
  constructor(private readonly senders: { email: MessageSender; sms: MessageSender }) {}

  send(message: OutboundMessage): Promise<MessageSendResult> {
    return this.senders[message.channel].send(message);
  }
}
