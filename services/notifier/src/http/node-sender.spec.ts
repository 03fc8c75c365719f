import assert from 'node:assert/strict';
import { SsrfPolicy } from '../security/ssrf-policy.js';
import { TestReceiver } from '../test-support/receiver.js';
import { NodeWebhookSender } from './node-sender.js';

const BODY = JSON.stringify({ id: 'ack-1', type: 'forecast', violations: [] });

describe('NodeWebhookSender', () => {
  const receiver = new TestReceiver();
  let sender: NodeWebhookSender;

  before(async () => {
    await receiver.start();
    // Requests on /hang are never answered: only a timeout or an abort ends them.
    receiver.on('/hang', () => undefined);
    receiver.on('/ok', (_req, res) => {
      res.writeHead(202, { 'content-type': 'text/plain' });
      res.end('taken');
    });
    receiver.on('/big', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(50_000));
    });
    // Headers at once, then the body never ends: only the attempt's timeout ends it.
    receiver.on('/stall', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('partial');
    });
    receiver.on('/reset', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '100' });
      res.write('cut short');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    receiver.on('/redirect', (_req, res) => {
      res.writeHead(302, { location: receiver.url('/ok') });
      res.end();
    });
  });
  beforeEach(() => {
    sender = new NodeWebhookSender({
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

  it('keeps the body up to the limit and says it was cut', async () => {
    const outcome = await sender.send(request('/big', 'e-1'));
    assert.equal(outcome.kind, 'response');
    assert.equal(outcome.kind === 'response' && outcome.body.length, 1_000);
    assert.equal(outcome.kind === 'response' && outcome.bodyTruncated, true);
    // The next request is not held up by the body left unread.
    assert.equal((await sender.send(request('/ok', 'e-2'))).kind, 'response');
  });

  it('times out an answer whose body never ends, as a timeout', async () => {
    const started = Date.now();
    const outcome = await sender.send(request('/stall', 'f-1', 300));
    assert.equal(outcome.kind, 'error');
    assert.equal(outcome.kind === 'error' && outcome.timedOut, true);
    assert.equal(outcome.kind === 'error' && outcome.message, 'timed out after 300 ms');
    assert.ok(Date.now() - started < 2_000);
  });

  it('reports a connection reset in the middle of the body as an error, not as an answer', async () => {
    const outcome = await sender.send(request('/reset', 'g-1'));
    assert.equal(outcome.kind, 'error');
    assert.equal(outcome.kind === 'error' && outcome.timedOut, false);
  });

  it('does not follow a redirect: the 302 is the answer', async () => {
    const before = receiver.at('/ok').length;
    const outcome = await sender.send(request('/redirect', 'h-1'));
    assert.equal(outcome.kind === 'response' && outcome.statusCode, 302);
    assert.equal(receiver.at('/ok').length, before);
  });

  it('refuses an address outside the policy without a request, and names a refused connection', async () => {
    const blocked = await sender.send({ ...request('/ok', 'i-1'), url: 'http://10.1.2.3/hook' });
    assert.equal(blocked.kind === 'error' && blocked.blocked, true);
    assert.match(blocked.kind === 'error' ? blocked.message : '', /10\.1\.2\.3/);
    const closed = new TestReceiver();
    await closed.start();
    const url = closed.url('/gone');
    await closed.stop();
    const refused = await sender.send({ ...request('/ok', 'i-2'), url });
    assert.equal(refused.kind === 'error' && refused.code, 'ECONNREFUSED');
    assert.equal(refused.kind === 'error' && refused.blocked, false);
  });

  it('refuses a name that resolves to an address outside the policy, at connect time', async () => {
    const strict = new NodeWebhookSender({ policy: new SsrfPolicy([]), maxBodyBytes: 1_000, userAgent: 'spec' });
    try {
      const outcome = await strict.send({ ...request('/ok', 'j-1'), url: `http://localhost:${receiver.port}/ok` });
      assert.equal(outcome.kind === 'error' && outcome.blocked, true, JSON.stringify(outcome));
      assert.match(outcome.kind === 'error' ? outcome.message : '', /^refused by SSRF policy: /);
    } finally {
      strict.close();
    }
  });

  it('speaks TLS to an https URL: a plain-HTTP receiver there is a TLS error, and gets no request', async () => {
    const before = receiver.requests.length;
    const outcome = await sender.send({ ...request('/ok', 'k-1'), url: `https://127.0.0.1:${receiver.port}/ok` });
    assert.equal(outcome.kind, 'error');
    assert.match(outcome.kind === 'error' ? `${outcome.code} ${outcome.message}` : '', /SSL|TLS|EPROTO/i);
    assert.equal(receiver.requests.length, before);
  });
});
