import type { Request, Response } from 'express';
import type { AreaIndex } from '@stormhook/access';
import { ApiError, ErrorMessages } from '@stormhook/errors';
import { principalOf } from '../http/auth-state.js';
import { allowedBoundaries } from '../http/caller-geography.js';
import { validatedQuery } from '../http/validated-input.js';
import type { Handlers } from '../routes/mount.js';
import { StreamQuery } from '../schemas/stream.js';
import { sseFrame } from '../stream/sse.js';
import type { StreamHub, StreamSink } from '../stream/stream-hub.js';
import { parseBBox, parseKinds } from '../stream/stream-query.js';
import type { AreaAccess } from '../stream/stream-selection.js';

export interface StreamSettings {
  keepAliveMs: number;
  bufferLimit: number;
  bufferChars: number;
  maxDurationMs: number;
  perAccountLimit: number;
}

/** How long an ended stream may take to flush its last frames before its socket is destroyed. */
const CLOSE_GRACE_MS = 30_000;

/** The HTTP response as a hub sink: writes are the socket's, a closed stream is freed even if the client never reads. */
function responseSink(res: Response): StreamSink {
  return {
    write: (frame) => res.write(frame),
    onDrain: (listener) => void res.once('drain', listener),
    close: (final) => {
      res.end(final);
      // A client that stopped reading never takes the end: its socket and buffers must not stay.
      const timer = setTimeout(() => res.destroy(), CLOSE_GRACE_MS);
      timer.unref();
      res.once('close', () => clearTimeout(timer));
    },
  };
}

/**
 * The plan geography as subscription-area keys, the ones the events are tagged with. ADMINs see
 * everywhere; a plan without geography sees nothing (as the lists answer it); a restricted plan
 * needs the provinces loaded from geo, and until then the answer is a 503 rather than a guess.
 */
function areaAccessOf(req: Request, areas: () => AreaIndex | undefined): AreaAccess {
  const boundaries = allowedBoundaries(req);
  if (boundaries === undefined) return { all: true };
  if (boundaries.length === 0) return { all: false, keys: new Set() };
  const index = areas();
  if (!index) throw new ApiError(503, ErrorMessages.serviceUnavailable);
  return { all: false, keys: index.resolve(boundaries.map((b) => ({ countryCode: b.country, region: b.region ?? '' }))).keys };
}

const STREAM_HEADERS = {
  'Content-Type': 'text/event-stream; charset=utf-8',
  'Cache-Control': 'no-store',
  // nginx and similar proxies buffer answers by default, which would hold events back.
  'X-Accel-Buffering': 'no',
};

const bad = (message: string) => new ApiError(400, message, [message]);

/** GET /v1/stream: the weather topics as server-sent events, filtered by the plan geography (stream/). */
export function streamHandlers(deps: { hub: StreamHub; areas: () => AreaIndex | undefined; settings: StreamSettings }): Handlers {
  const { hub, settings } = deps;
  return {
    streamWeather: (req, res) => {
      const query = validatedQuery(req, StreamQuery);
      const kinds = parseKinds(query.kinds);
      if (!kinds.ok) throw bad(kinds.message);
      const bbox = parseBBox(query.bbox);
      if (!bbox.ok) throw bad(bbox.message);
      const areas = areaAccessOf(req, deps.areas);
      const principal = principalOf(req);
      // An ADMIN may have no account: its streams count as its own.
      const account = principal.accountId || `user:${principal.userId}`;
      res.status(200);
      res.set(STREAM_HEADERS);
      const ready = sseFrame('ready', {
        kinds: kinds.value,
        bbox: bbox.value ?? null,
        keepAliveSeconds: settings.keepAliveMs / 1000,
        bufferLimit: settings.bufferLimit,
        maxDurationSeconds: settings.maxDurationMs / 1000,
        serverTimeEpochMillis: Date.now(),
      });
      const opened = hub.open({ account, userId: principal.userId }, { kinds: new Set(kinds.value), bbox: bbox.value, areas }, responseSink(res), ready);
      if (!opened.ok) {
        // The error answer is JSON: the stream's headers must not go with it.
        for (const name of Object.keys(STREAM_HEADERS)) res.removeHeader(name);
        if (opened.reason === 'CLOSED') throw new ApiError(503, ErrorMessages.serviceUnavailable);
        throw new ApiError(429, `At most ${settings.perAccountLimit} weather streams may be open at once per account on one gateway replica`);
      }
      // A client gone before the stream opened has closed already: nothing would detach it.
      if (res.destroyed) opened.stream.detach();
      else res.once('close', () => opened.stream.detach());
    },
  };
}
