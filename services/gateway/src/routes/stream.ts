import type { RouteSpec } from '../contract/route-spec.js';
import { StreamQuery } from '../schemas/stream.js';
import { WEATHER_ERRORS } from './error-sets.js';

/** What a stream sends and how it is counted, for the document (the event types: @stormhook/webhooks/stream-events). */
const STREAM_DESCRIPTION = [
  'Server-sent events (`text/event-stream`) of the weather as ingest publishes it: lightning strikes, thunderstorm cells and rain areas, ',
  'only those touching the subscription geography (as the page operations filter), optionally only some `kinds` and only inside a `bbox`. ',
  'It never ends on its own while the client reads: read it with fetch() and a ReadableStream (EventSource cannot send the Authorization header); ',
  'there is no token in the query string.\n\n',
  'Events, each `event:` + `id:` + one `data:` line of JSON: `ready` first (what the stream carries: kinds, bbox, keepAliveSeconds, bufferLimit, ',
  'maxDurationSeconds, serverTimeEpochMillis); then `lightning` (the strike fields of the lightning.strike callback: eventId, strikeId, ',
  'timeEpochMillis, dischargeType, latitude, longitude, peakCurrent, inCloudHeight, multiplicity, revision), `thunderstorm` (an item of ',
  'POST /v1/thunderstorms/page plus revision, motion {speedKmh, towardDeg, fromDeg, source} and predictedPath: the centroid every 10 minutes ',
  'for 60 minutes along the motion and the outline at the horizon, or null without motion) and `precipitation` (an item of ',
  'POST /v1/precipitations/page plus rainRate, geometry {polygons}, centroid, areaKm2, motion, revision); a later revision of an eventId ',
  'replaces the earlier one. `id:` is `<eventId>.<revision>`; the stream is live only, so Last-Event-ID is not replayed. A `: keep-alive` ',
  'comment comes when nothing else was sent for keepAliveSeconds. `end` comes last, with reason SLOW_CONSUMER (the client fell more than ',
  'bufferLimit events behind and is disconnected), MAX_DURATION (reconnect), SHUTTING_DOWN (reconnect) or ACCESS_CHANGED (the ',
  "user's role, status, API key, account or plan changed: reconnect, and the new stream carries what the user may now see; the ",
  'answer is an error if nothing).\n\n',
  'Metering: opening a stream counts one THUNDERSTORM invocation (the plan must grant THUNDERSTORM), however long it stays open; a refused ',
  'stream is not counted. An account may hold GATEWAY_STREAMS_PER_ACCOUNT streams open at once on each gateway replica (default 3); ',
  'one more answers 429.',
].join('');

export const streamRoutes: readonly RouteSpec[] = [
  {
    operationId: 'streamWeather',
    method: 'get',
    path: '/v1/stream',
    summary: 'Live lightning, thunderstorms and rain of the subscription area, as server-sent events',
    description: STREAM_DESCRIPTION,
    tag: 'live weather',
    roles: 'any authenticated caller whose subscription covers THUNDERSTORM',
    authenticated: true,
    request: { query: StreamQuery },
    response: { status: 200, description: 'an endless text/event-stream of the events described above' },
    errors: [...WEATHER_ERRORS, 503],
  },
];
