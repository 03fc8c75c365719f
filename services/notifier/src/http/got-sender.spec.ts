import assert from 'node:assert/strict';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { TestReceiver } from '../test-support/receiver.js';
import { GotWebhookSender } from './got-sender.js';

const BODY = JSON.stringify({ id: 'ack-1', type: 'forecast', violations: [] });

describe('GotWebhookSender', () => {
  const receiver = new TestReceiver();
  let sender: GotWebhookSender;

  before(async () => {
    await receiver.start();
    // Requests on /hang are never answered: only a timeout or an abort ends them.
    receiver.on('/hang', () => undefined);
    receiver.on('/ok', (_req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('taken');
    });
  });
  beforeEach(() => {
    sender = new GotWebhookSender({
      policy: new SsrfPolicy(['127.0.0.1/32']),
      maxBodyBytes: 1_000,
      userAgent: 'Stormhook-Webhooks/spec',
      maxSocketsPerHost: 4,
    });
  });
  afterEach(() => sender.close());
  after(() => receiver.stop());

  const request = (path: string, id: string, timeoutMs = 5_000) => ({
    method: 'POST',
    url: receiver.url(path),
    headers: { 'content-type': 'application/json', 'webhook-id': id },
    body: BODY,
    timeoutMs,
  });

  it('sends the method, headers and body as given, and reads the answer', async () => {
    const outcome = await sender.send(request('/ok', 'w-1'), new AbortController().signal);
    assert.equal(outcome.kind, 'response');
    assert.equal(outcome.kind === 'response' && outcome.statusCode, 202);
    assert.equal(outcome.kind === 'response' && outcome.body, 'taken');
    const [received] = receiver.at('/ok');
    assert.equal(received?.method, 'POST');
    assert.equal(received?.body, BODY);
    assert.equal(received?.headers['webhook-id'], 'w-1');
    assert.equal(received?.headers['user-agent'], 'Stormhook-Webhooks/spec');
    assert.equal(received?.headers['content-length'], String(Buffer.byteLength(BODY)));
  });

  it('ends every request in flight under a signal when it aborts, and only those', async () => {
    const stopping = new AbortController();
    const other = new AbortController();
    const started = Date.now();
    const aborted = [1, 2, 3].map((n) => sender.send(request('/hang', `a-${n}`), stopping.signal));
    const untouched = sender.send(request('/hang', 'b-1', 1_500), other.signal);
    await receiver.waitFor('/hang', 4);
    stopping.abort(new Error('stopping'));
    for (const outcome of await Promise.all(aborted)) {
      assert.equal(outcome.kind, 'error');
      assert.equal(outcome.kind === 'error' && outcome.timedOut, false);
    }
    assert.ok(Date.now() - started < 1_500, 'ended by the abort, not by the 5 s timeout');
    // The request under another signal runs on to its own timeout.
    const late = await untouched;
    assert.equal(late.kind === 'error' && late.timedOut, true);
    assert.ok(Date.now() - started >= 1_400);
  });

  it('sends nothing under a signal that has aborted already, and is not held by it afterwards', async () => {
    const stopped = new AbortController();
    stopped.abort(new Error('stopped'));
    const before = receiver.at('/ok').length;
    const outcome = await sender.send(request('/ok', 'c-1'), stopped.signal);
    assert.equal(outcome.kind, 'error');
    assert.equal(receiver.at('/ok').length, before);
    const fresh = await sender.send(request('/ok', 'c-2'), new AbortController().signal);
    assert.equal(fresh.kind, 'response');
  });

  it('ends a request under a signal aborted with a timeout as timed out', async () => {
    const outcome = await sender.send(request('/hang', 'd-1'), AbortSignal.timeout(200));
    assert.equal(outcome.kind, 'error');
    assert.equal(outcome.kind === 'error' && outcome.timedOut, true);
  });
});
