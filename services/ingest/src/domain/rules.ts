import type { BBox } from '@stormhook/geometry';
import { FEED_AREA } from '@stormhook/limits';

/**
 * The tunable limits of validation, from the service config. Everything else (physical ranges,
 * identifier syntax) is fixed by the feed contract in proto/stormhook/feed/v1/FEEDS.md.
 */
export interface IngestRules {
  /** How far a record's time may lie in the future: clock skew between publisher and us. */
  maxFutureSkewMs: number;
  /** How far ahead a nowcast (precipitation with forecast = true) may be valid. */
  maxNowcastLeadMs: number;
  /** Records older than this are rejected: replays of stale data would wake alarms for weather long gone. */
  maxAgeMs: number;
  /** Geometries and points must touch this box: the area the platform serves. */
  coverage: BBox;
  /** Vertices per record, all rings together. */
  maxVertices: number;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The feed area of @stormhook/limits: the covered area with a margin, so storms approaching from the seas are kept. */
export const DEFAULT_COVERAGE: BBox = FEED_AREA;

export const DEFAULT_RULES: IngestRules = {
  maxFutureSkewMs: 10 * MINUTE,
  maxNowcastLeadMs: 6 * HOUR,
  maxAgeMs: 7 * DAY,
  coverage: DEFAULT_COVERAGE,
  maxVertices: 20_000,
};
