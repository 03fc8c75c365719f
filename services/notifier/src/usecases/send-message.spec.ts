import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@stormhook/logger';
import { notificationV1 } from '@stormhook/proto';
import { DevOutboxSender } from '../messaging/dev-outbox-sender.js';
import type { MessageLog, MessageLogEntry } from '../ports/message-log.js';
import type { MessageSender } from '../ports/message-sender.js';
import { systemClock } from '../ports/clock.js';
import { SendMessage } from './send-message.js';

class MemoryLog implements MessageLog {
  readonly entries = new Map<string, MessageLogEntry>();
  async get(id: string) {
    return this.entries.get(id) ?? null;
  }
  async save(entry: MessageLogEntry) {
    this.entries.set(entry.messageId, entry);
  }
}

const logger = createLogger({ service: 'test', level: 'silent' });
const request = (over: Partial<notificationV1.MessageRequested> = {}) =>
  notificationV1.MessageRequested.create({ messageId: 'msg_1', channel: 'MESSAGE_CHANNEL_SMS', recipient: '+905551112233', template: 'MESSAGE_TEMPLATE_PHONE_ACTIVATION', locale: 'tr_TR', params: { code: '482913', expiresAt: '2026-01-01T00:10:00Z' }, ...over });

describe('SendMessage', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'notifier-outbox-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('renders the template in the recipient language, writes it to the development outbox once', async () => {
    const notices: Array<{ file: string; channel: string; messageId: string }> = [];
    const sender = new DevOutboxSender(dir, (notice) => notices.push(notice));
    const log = new MemoryLog();
    const send = new SendMessage({ sender, log, clock: systemClock, logger });
    assert.deepEqual(await send.execute(request()), { kind: 'sent' });
    assert.deepEqual(await send.execute(request()), { kind: 'duplicate' });
    const lines = (await readFile(sender.file, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 1);
    const written = JSON.parse(lines[0] as string) as { text: string; recipient: string };
    assert.match(written.text, /aktivasyon kodunuz 482913/);
    assert.equal(written.recipient, '+905551112233');
    // The developer is told where the message went, once, without the code itself.
    assert.deepEqual(notices, [{ file: sender.file, channel: 'sms', messageId: 'msg_1' }]);
  });

  it('rejects bad requests for good and asks to retry provider outages', async () => {
    const down: MessageSender = { send: async () => ({ ok: false, permanent: false, reason: 'SMTP: connection refused' }) };
    const send = new SendMessage({ sender: down, log: new MemoryLog(), clock: systemClock, logger });
    assert.equal((await send.execute(request({ recipient: '05551112233' }))).kind, 'rejected');
    assert.equal((await send.execute(request({ channel: 'MESSAGE_CHANNEL_UNSPECIFIED' }))).kind, 'rejected');
    assert.equal((await send.execute(request({ channel: 'MESSAGE_CHANNEL_EMAIL', recipient: 'a@b.co', template: 'MESSAGE_TEMPLATE_UNSPECIFIED' }))).kind, 'rejected');
    assert.equal((await send.execute(request())).kind, 'retry');
  });
});
