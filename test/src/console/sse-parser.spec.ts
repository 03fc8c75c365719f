import assert from 'node:assert/strict';
import { SseParser, type RawSseEvent } from '@stormhook/console/stream/sse-parser';
import { parseStreamEvent } from '@stormhook/console/stream/stream-reader';

function parseAll(chunks: string[]): RawSseEvent[] {
  const events: RawSseEvent[] = [];
  const parser = new SseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  return events;
}

describe("the console's event-stream parser", () => {
  const wire =
    ': keep-alive\n\nevent: lightning\nid: ltg_1.1\ndata: {"eventId":"ltg_1"}\n\nevent: end\ndata: {"reason":"MAX_DURATION",\ndata: "message":"bye"}\n\n';

  it('reads events, ids and multi-line data, and skips comments', () => {
    assert.deepEqual(parseAll([wire]), [
      { event: 'lightning', id: 'ltg_1.1', data: '{"eventId":"ltg_1"}' },
      { event: 'end', id: 'ltg_1.1', data: '{"reason":"MAX_DURATION",\n"message":"bye"}' },
    ]);
  });

  it('gives the same events whatever the chunking, one character at a time included, and with CRLF', () => {
    const whole = parseAll([wire]);
    assert.deepEqual(parseAll([...wire]), whole);
    assert.deepEqual(parseAll([wire.slice(0, 17), wire.slice(17, 40), wire.slice(40)]), whole);
    const crlf = wire.replace(/\n/g, '\r\n');
    assert.deepEqual(parseAll([...crlf]), whole);
  });

  it('waits for the blank line: a half event is not handed out', () => {
    assert.deepEqual(parseAll(['event: lightning\ndata: {}\n']), []);
  });

  it('types known events and drops unknown names and bad JSON', () => {
    assert.deepEqual(parseStreamEvent({ event: 'lightning', data: '{"eventId":"x"}' }), { event: 'lightning', data: { eventId: 'x' } });
    assert.equal(parseStreamEvent({ event: 'radar', data: '{}' }), undefined);
    assert.equal(parseStreamEvent({ event: 'lightning', data: '{not json' }), undefined);
    assert.equal(parseStreamEvent({ event: 'lightning', data: '42' }), undefined);
  });
});
