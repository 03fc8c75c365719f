import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DevOutboxSender } from './dev-outbox-sender.js';

describe('DevOutboxSender', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'notifier-outbox-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('appends the message as one JSON line and tells the developer where it went, without the secret text', async () => {
    const notices: Array<{ file: string; channel: string; messageId: string }> = [];
    const sender = new DevOutboxSender(dir, (notice) => notices.push(notice));
    const result = await sender.send({ messageId: 'msg_1', channel: 'sms', recipient: '+905551112233', subject: '', text: 'aktivasyon kodunuz 482913' });
    assert.deepEqual(result, { ok: true, providerId: 'dev-msg_1' });
    const lines = (await readFile(sender.file, 'utf8')).trim().split('\n');
    assert.equal(lines.length, 1);
    const written = JSON.parse(lines[0] as string) as { text: string; recipient: string };
    assert.match(written.text, /482913/);
    assert.equal(written.recipient, '+905551112233');
    assert.deepEqual(notices, [{ file: sender.file, channel: 'sms', messageId: 'msg_1' }]);
  });
});
