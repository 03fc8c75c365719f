import assert from 'node:assert/strict';
import type { weatherV1 } from '@stormhook/proto';
import { PLACES, precipitation, publishPrecipitations, publishStrikes, publishThunderstorms, strike, thunderstorm } from '../weather/fixtures.js';
import { eventually, startWeatherStack, type WeatherStack } from '../weather/support.js';

interface SseEvent {
  event: string;
  id?: string;
  data: any;
}

/** A client of GET /v1/stream as the console reads it: fetch and the body's reader, with an Authorization header. */
class StreamClient {
  readonly events: SseEvent[] = [];
  /** Settles when the server ends the stream (or the connection breaks). */
  finished: Promise<'ended' | 'broken'> | undefined;
  private readonly abort = new AbortController();
  private response: Response | undefined;

  static async open(baseUrl: string, token: string, query = '', read = true): Promise<StreamClient> {
    const client = new StreamClient();
    client.response = await fetch(`${baseUrl}/v1/stream${query}`, { headers: { authorization: `Bearer ${token}` }, signal: client.abort.signal });
    if (read && client.response.ok) client.startReading();
    return client;
  }

  get status(): number {
    return this.response?.status ?? 0;
  }
  get headers(): Headers {
    return this.response!.headers;
  }
  async json(): Promise<any> {
    return this.response!.json();
  }

  startReading(): void {
    const body = this.response?.body;
    if (!body) throw new Error('no stream body');
    this.finished = (async () => {
      const reader = body.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      try {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return 'ended';
          text += value;
          let cut: number;
          while ((cut = text.indexOf('\n\n')) >= 0) {
            this.parse(text.slice(0, cut));
            text = text.slice(cut + 2);
          }
        }
      } catch {
        return 'broken';
      }
    })();
  }

  private parse(block: string): void {
    const fields = new Map<string, string>();
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(': ');
      if (colon > 0) fields.set(line.slice(0, colon), line.slice(colon + 2));
    }
    const event = fields.get('event');
    if (event === undefined) return;
    const id = fields.get('id');
    this.events.push({ event, ...(id !== undefined ? { id } : {}), data: JSON.parse(fields.get('data') ?? 'null') });
  }

  of(event: string): any[] {
    return this.events.filter((e) => e.event === event).map((e) => e.data);
  }

  close(): void {
    this.abort.abort();
  }
}

/** A rain area over Ankara whose outline has `vertices` points: a heavy event (tens of kilobytes of JSON). */
function heavyRain(id: string, vertices: number): weatherV1.PrecipitationEvent {
  const points = Array.from({ length: vertices }, (_, i) => {
    const angle = (i / vertices) * 2 * Math.PI;
    return { lng: PLACES.ankara.lng + 0.2 * Math.cos(angle), lat: PLACES.ankara.lat + 0.2 * Math.sin(angle) };
  });
  const ring = { points: [...points, points[0]!] };
  return precipitation(id, PLACES.ankara, Date.now(), 'PRECIPITATION_INTENSITY_HEAVY', { geometry: { polygons: [{ exterior: ring, holes: [] }] } });
}

/**
 * GET /v1/stream on the real stack: weather published to the real Kafka reaches the gateway's one
 * consumer and, through its fan-out, only the streams whose plan geography it touches.
 */
describe('the weather stream GET /v1/stream (real Kafka, identity and geo)', function () {
  this.timeout(240_000);
  let stack: WeatherStack;
  let ankara: string; // API_USER whose plan allows the province of Ankara only
  let turkey: string; // API_USER whose plan allows all of Türkiye
  const open: StreamClient[] = [];
  const stream = async (token: string, query = '', read = true) => {
    const client = await StreamClient.open(stack.baseUrl, token, query, read);
    open.push(client);
    return client;
  };
  const ready = (client: StreamClient) => eventually(async () => (client.of('ready').length > 0 ? true : undefined), 'the ready event');

  before(async () => {
    stack = await startWeatherStack({ gatewayEnv: { GATEWAY_STREAM_BUFFER_EVENTS: '20', GATEWAY_STREAMS_PER_ACCOUNT: '2' } });
    ankara = (await stack.regionalUser({ country: 'TUR', region: 'Ankara' })).token;
    turkey = (await stack.regionalUser({ country: 'TUR' })).token;
  });
  afterEach(async () => {
    for (const client of open.splice(0)) client.close();
    // The gateway frees a stream's slot when it sees the connection close.
    await new Promise((resolve) => setTimeout(resolve, 200));
  });
  after(async () => {
    await stack?.stop();
  });

  it("carries Ankara strikes, storms and rain to an Ankara-only customer and never İstanbul's; an all-Turkey customer gets both", async () => {
    const ankaraStream = await stream(ankara);
    const turkeyStream = await stream(turkey);
    await ready(ankaraStream);
    await ready(turkeyStream);
    assert.equal(ankaraStream.status, 200);
    assert.match(ankaraStream.headers.get('content-type') ?? '', /^text\/event-stream/);
    assert.deepEqual(ankaraStream.of('ready')[0].kinds, ['lightning', 'thunderstorm', 'precipitation']);
    // The consumer reads from the end of the topics once it has joined: publish after the streams are open.
    const now = Date.now();
    const strikes = [
      strike('ank-1', PLACES.ankara),
      strike('ist-1', PLACES.istanbul),
      strike('ank-2', { lng: 32.6, lat: 39.8 }),
      strike('ist-2', { lng: 29.1, lat: 41.05 }),
    ];
    await publishStrikes(stack, strikes);
    await publishThunderstorms(stack, [
      thunderstorm('ank', PLACES.ankara, now - 600_000, now + 600_000),
      thunderstorm('ist', PLACES.istanbul, now - 600_000, now + 600_000),
    ]);
    await publishPrecipitations(stack, [precipitation('ank', PLACES.ankara, now), precipitation('ist', PLACES.istanbul, now)]);

    const sorted = (list: any[]) => list.map((e) => String(e.eventId)).sort();
    await eventually(
      async () =>
        turkeyStream.of('lightning').length >= 4 && turkeyStream.of('thunderstorm').length >= 2 && turkeyStream.of('precipitation').length >= 2
          ? true
          : undefined,
      'the all-Turkey stream to receive every event',
      60_000,
    );
    assert.deepEqual(sorted(turkeyStream.of('lightning')), ['ltg_ank-1', 'ltg_ank-2', 'ltg_ist-1', 'ltg_ist-2']);
    assert.deepEqual(sorted(turkeyStream.of('thunderstorm')), ['tst_ank', 'tst_ist']);
    assert.deepEqual(sorted(turkeyStream.of('precipitation')), ['prc_ank', 'prc_ist']);
    // The hub writes each event to every stream in one pass: by now the Ankara stream has had its share.
    await eventually(async () => (ankaraStream.of('lightning').length >= 2 ? true : undefined), 'the Ankara strikes', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(sorted(ankaraStream.of('lightning')), ['ltg_ank-1', 'ltg_ank-2']);
    assert.deepEqual(sorted(ankaraStream.of('thunderstorm')), ['tst_ank']);
    assert.deepEqual(sorted(ankaraStream.of('precipitation')), ['prc_ank']);

    // The shapes of stream-events.ts: the callback's strike fields, the page's storm with its motion and path.
    const first = ankaraStream.events.find((e) => e.event === 'lightning' && e.data.eventId === 'ltg_ank-1');
    assert.equal(first?.id, 'ltg_ank-1.1');
    assert.deepEqual(Object.keys(first?.data ?? {}).sort(), [
      'dischargeType',
      'eventId',
      'inCloudHeight',
      'latitude',
      'longitude',
      'multiplicity',
      'peakCurrent',
      'revision',
      'strikeId',
      'timeEpochMillis',
    ]);
    const storm = ankaraStream.of('thunderstorm')[0];
    assert.equal(storm.severity, 'MEDIUM');
    assert.equal(storm.motion.towardDeg, 255);
    assert.equal(storm.predictedPath.points.length, 7);
  });

  it('ends a stream when the plan changes, and the stream opened again carries only what the new plan allows', async () => {
    const customer = await stack.regionalUser({ country: 'TUR' });
    const before = await stream(customer.token, '?kinds=lightning');
    await ready(before);
    await stack.restrictPlan(customer.accountId, { country: 'TUR', region: 'Ankara' });
    await eventually(async () => (before.of('end').length > 0 ? true : undefined), 'the end of the stream opened under the old plan', 30_000);
    assert.equal(before.of('end')[0].reason, 'ACCESS_CHANGED');
    assert.equal(await before.finished, 'ended');
    const after = await stream(customer.token, '?kinds=lightning');
    assert.equal(after.status, 200);
    await ready(after);
    await publishStrikes(stack, [strike('plan-ist', PLACES.istanbul), strike('plan-ank', PLACES.ankara)]);
    await eventually(async () => (after.of('lightning').length > 0 ? true : undefined), 'the Ankara strike', 60_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(
      after.of('lightning').map((e) => e.eventId),
      ['ltg_plan-ank'],
    );
  });

  it('answers bad parameters with a 400 naming the parameter, and no credentials with a 401', async () => {
    for (const [query, pattern] of [
      ['?kinds=lightning,hail', /kinds/],
      ['?bbox=33.2,39.7,32.5,40.1', /bbox minLng/],
      ['?bbox=north', /bbox/],
      ['?colour=red', /colour is not a known field/],
    ] as const) {
      const answer = await stream(turkey, query, false);
      assert.equal(answer.status, 400, query);
      const body = await answer.json();
      assert.match([body.message, ...(body.messages ?? [])].join(' | '), pattern, query);
    }
    const anonymous = await fetch(`${stack.baseUrl}/v1/stream`);
    assert.equal(anonymous.status, 401);
    await anonymous.body?.cancel();
  });

  it('filters by kinds and box, counts each stream once against the quota and caps the streams of an account', async () => {
    const strikesInCankaya = await stream(turkey, '?kinds=lightning&bbox=32.5,39.7,33.2,40.1');
    await ready(strikesInCankaya);
    const remaining = Number(strikesInCankaya.headers.get('ratelimit-remaining'));
    assert.ok(Number.isInteger(remaining) && remaining > 0, 'the stream answers with the quota headers');
    const second = await stream(turkey);
    assert.equal(second.status, 200);
    assert.equal(Number(second.headers.get('ratelimit-remaining')), remaining - 1, 'opening a stream counts one invocation');
    const third = await stream(turkey, '', false);
    assert.equal(third.status, 429);
    assert.match((await third.json()).message, /At most 2 weather streams/);
    const now = Date.now();
    await publishStrikes(stack, [strike('box-in', PLACES.ankara), strike('box-out', PLACES.istanbul)]);
    await publishPrecipitations(stack, [precipitation('box-rain', PLACES.ankara, now)]);
    await eventually(
      async () => (second.of('precipitation').some((e) => e.eventId === 'prc_box-rain') ? true : undefined),
      'the rain on the open stream',
      60_000,
    );
    await eventually(async () => (strikesInCankaya.of('lightning').length > 0 ? true : undefined), 'the strike in the box', 10_000);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    assert.deepEqual(
      strikesInCankaya.events.filter((e) => e.event !== 'ready').map((e) => e.data.eventId),
      ['ltg_box-in'],
    );
  });

  it('cuts off a client that stops reading, with an end event saying why, while a reading client gets everything', async () => {
    const slow = await stream(ankara, '?kinds=precipitation', false);
    const reading = await stream(turkey, '?kinds=precipitation');
    await ready(reading);
    // About 30 MB of rain areas: far more than the socket buffers between the gateway and a client
    // that does not read, and the stream holds 20 events beyond them (GATEWAY_STREAM_BUFFER_EVENTS).
    const total = 400;
    const rain = Array.from({ length: total }, (_, i) => heavyRain(`heavy-${i}`, 2_000));
    // In small batches: a record batch must stay under the broker's message size limit.
    for (let i = 0; i < rain.length; i += 10) await publishPrecipitations(stack, rain.slice(i, i + 10));
    await eventually(async () => (reading.of('precipitation').length >= total ? true : undefined), 'the reading client to get every rain area', 120_000);
    assert.equal(reading.of('end').length, 0, 'the reading client is not cut off');
    // Read now what the gateway wrote before it cut the slow client off: the stream must end early.
    slow.startReading();
    const how = await slow.finished;
    assert.equal(how, 'ended');
    const received = slow.of('precipitation').length;
    assert.ok(received < total, `the slow client got ${received} of ${total} before the cut-off`);
    const last = slow.events[slow.events.length - 1];
    assert.equal(last?.event, 'end');
    assert.equal(last?.data.reason, 'SLOW_CONSUMER');
  });
});
