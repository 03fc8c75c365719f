import { KEEP_ALIVE_FRAME, sseFrame } from '../stream/sse.js';
import { NOW_MS } from './examples.js';

/**
 * The start of a stream over Ankara as it goes on the wire: `ready`, a strike, a quiet spell's
 * keep-alive and, at the end, a client that fell behind. Built with the frame writer the gateway
 * uses, so the example cannot drift from the real framing.
 */
const SAMPLE = [
  sseFrame('ready', {
    kinds: ['lightning', 'thunderstorm', 'precipitation'],
    bbox: null,
    keepAliveSeconds: 15,
    bufferLimit: 2000,
    maxDurationSeconds: 1800,
    serverTimeEpochMillis: NOW_MS,
  }),
  sseFrame(
    'lightning',
    {
      eventId: 'ltg_01JDXK4M7Q2R5W9Z',
      strikeId: 'ens-20261128-120000-7731',
      timeEpochMillis: NOW_MS + 1_200,
      dischargeType: 'FLASH_CLOUD_TO_GROUND',
      latitude: 39.9412,
      longitude: 32.8711,
      peakCurrent: -24_500,
      inCloudHeight: null,
      multiplicity: { strokes: 2 },
      revision: 1,
    },
    'ltg_01JDXK4M7Q2R5W9Z.1',
  ),
  KEEP_ALIVE_FRAME,
  sseFrame('end', { reason: 'SLOW_CONSUMER', message: 'the client read too slowly: more events were waiting for it than the stream holds' }),
].join('');

/** The success content of GET /v1/stream: text, one event per blank-line-separated block. */
export const STREAM_CONTENT = {
  'text/event-stream': {
    schema: {
      type: 'string',
      description: 'server-sent events (WHATWG HTML); the data of each event type is listed in the operation description',
    },
    example: SAMPLE,
  },
};
