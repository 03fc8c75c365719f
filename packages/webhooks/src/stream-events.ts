/**
 * THE event vocabulary of `GET /v1/stream` (server-sent events, text/event-stream): every event the
 * stream sends, by its `event:` name, with the JSON of its `data:` line. The gateway writes it and the
 * console (browser code) reads it, both from this one file: it imports nothing, so the browser bundle
 * takes it alone (`@stormhook/webhooks/stream-events`). Changes are additive only.
 *
 * Wire form of one event (a blank line ends it):
 *
 *     event: lightning
 *     id: ltg_01JDXK4M7Q2R5W9Z.1
 *     data: {"eventId":"ltg_01JDXK4M7Q2R5W9Z", ...}
 *
 * - `id:` is `<eventId>.<revision>` for the weather events (unique per revision, as the Kafka
 *   header event-id is); the stream is live only, so a reconnect's Last-Event-ID is not replayed.
 * - A comment line `: keep-alive` is sent about every 15 s when nothing else was, so proxies and
 *   the client see the connection alive.
 * - The weather events carry only what the caller's plan geography allows (and, when asked, what
 *   the `kinds` and `bbox` query parameters select); revisions of one event arrive in order.
 * - Field names are those the API already answers: thunderstorm = an item of
 *   POST /v1/thunderstorms/page, precipitation = an item of POST /v1/precipitations/page plus its
 *   geometry, lightning = the fields of the lightning.strike webhook callback body about the strike.
 */

/** The weather kinds a stream can carry; the `kinds` query parameter takes a comma list of these. */
export const STREAM_KINDS = ['lightning', 'thunderstorm', 'precipitation'] as const;
export type StreamKind = (typeof STREAM_KINDS)[number];

/** Every `event:` name the stream sends. */
export const STREAM_EVENT_NAMES = ['ready', ...STREAM_KINDS, 'end'] as const;
export type StreamEventName = (typeof STREAM_EVENT_NAMES)[number];

/** interface.md 2.1 GeoPoint: decimal degrees, WGS 84. */
export interface StreamGeoPoint {
  lng: number;
  lat: number;
}

/** interface.md 2.1 Polygon (ring form): closed rings, exterior counterclockwise, holes clockwise. */
export interface StreamPolygon {
  exterior: StreamGeoPoint[];
  holes: StreamGeoPoint[][];
}

/** interface.md 2.1 Geometry (multi form): every part of an area. */
export interface StreamGeometry {
  polygons: StreamPolygon[];
}

/** A longitude/latitude-aligned box, decimal degrees (the `bbox` query parameter's form). */
export interface StreamBBox {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

/**
 * `event: ready`, sent once, first, when the stream is open: what it will carry. Nothing weather
 * is sent before it; its absence means the stream did not open (the HTTP answer was an error).
 */
export interface ReadyEventData {
  /** The kinds this stream carries, as requested (default all). */
  kinds: StreamKind[];
  /** The box requested, or null for the whole plan geography. */
  bbox: StreamBBox | null;
  /** Seconds between keep-alive comments when nothing else is sent. */
  keepAliveSeconds: number;
  /** Events held for this client at most; a client that falls further behind is disconnected. */
  bufferLimit: number;
  /** The stream ends (event `end`, reason MAX_DURATION) this many seconds after it opened; reconnect then. */
  maxDurationSeconds: number;
  /** When the stream opened, epoch milliseconds UTC. */
  serverTimeEpochMillis: number;
}

/**
 * `event: lightning`: one located discharge. Field names of the lightning.strike callback body
 * (without the webhook envelope, registration and distance, which belong to an alarm).
 */
export interface LightningEventData {
  /** Stormhook's id of the discharge (ltg_...). */
  eventId: string;
  /** The detection network's id of the discharge. */
  strikeId: string;
  /** Time of the discharge, epoch milliseconds UTC. */
  timeEpochMillis: number;
  dischargeType: 'FLASH_CLOUD_TO_GROUND' | 'FLASH_IN_CLOUD';
  /** Located point, decimal degrees WGS 84. */
  latitude: number;
  longitude: number;
  /** Amperes, signed (negative = negative polarity). */
  peakCurrent: number;
  /** Metres above mean sea level; null for cloud-to-ground. */
  inCloudHeight: number | null;
  multiplicity: { strokes: number };
  /** Version of the event: 1 when first published, +1 per accepted change. */
  revision: number;
}

/** Where a storm cell or a rain area is heading, as the feed reported it (its last scans' displacement). */
export interface StreamMotion {
  /** Ground speed, km/h. */
  speedKmh: number;
  /** Direction of travel, degrees clockwise from true north (0 to below 360). */
  towardDeg: number;
  /** The same direction as meteorologists give it: where it comes from (towardDeg + 180, mod 360). */
  fromDeg: number;
  /** FEED: the publisher's vector. */
  source: 'FEED';
}

/** One point of a predicted path: where the cell's centroid is expected `minutesAhead` after the scan. */
export interface PredictedPathPoint {
  minutesAhead: number;
  /** The scan time plus minutesAhead, epoch milliseconds UTC. */
  epochMillis: number;
  centroid: StreamGeoPoint;
}

/**
 * The cell extrapolated along its motion for the next hour: the centroid every `stepMinutes` from
 * the scan (minutesAhead 0) to `horizonMinutes`, and the cell outline moved to the horizon. A
 * straight line at constant speed (the method of the callbacks' `eta`): a guide for the map, not the
 * alarm matcher's damped prediction.
 */
export interface PredictedPath {
  method: 'LINEAR_EXTRAPOLATION';
  /** The scan the prediction starts from, epoch milliseconds UTC. */
  issuedEpochMillis: number;
  horizonMinutes: number;
  stepMinutes: number;
  points: PredictedPathPoint[];
  /** The cell outline (ring form) where it is expected at the horizon. */
  polygonAtHorizon: StreamPolygon;
}

/**
 * `event: thunderstorm`: one revision of a tracked cell; a later revision of the same eventId
 * replaces the earlier one (it ends at eventEndUtcEpoch). The members up to threatPolygon are an
 * item of POST /v1/thunderstorms/page; revision, motion and predictedPath are the stream's additions.
 */
export interface ThunderstormEventData {
  eventId: string;
  insertedAtEpoch: number;
  eventStartUtcEpoch: number;
  eventEndUtcEpoch: number;
  /** LOW, MEDIUM or HIGH. */
  severity: string;
  /** Minimum flash rate for a cluster to count as a thunderstorm, flashes per minute. */
  threshold: number;
  meta: { country: string; state: string; city: string; speedUnit: string; speed: number };
  cell: {
    /** km² */
    area: number;
    /** km/h */
    speed: number;
    /** Direction of travel, degrees, 0 = North, clockwise. */
    direction: number;
    /** Flashes per minute. */
    flashRates: { inCloud: number; cloudToGround: number; total: number };
    centroid: StreamGeoPoint;
    polygon: StreamPolygon;
  };
  /** Area the cell is expected to affect. */
  threatPolygon: StreamPolygon;
  revision: number;
  /** null when the feed sent no motion (speed 0). */
  motion: StreamMotion | null;
  /** null when there is no motion to extrapolate. */
  predictedPath: PredictedPath | null;
}

/**
 * `event: precipitation`: one rain area of one radar scan (forecast false) or nowcast step (forecast
 * true), of one intensity class. eventId, radarTimeStamp, forecast and intensity are an item of
 * POST /v1/precipitations/page; the rest are the stream's additions (the geometry the page leaves to
 * /v1/precipitations/geometry).
 */
export interface PrecipitationEventData {
  eventId: string;
  /** Radar scan time, or the nowcast's valid time, epoch milliseconds UTC. */
  radarTimeStamp: number;
  forecast: boolean;
  /** DRIZZLE, LIGHT, MODERATE, HEAVY, VERY_HEAVY or EXTREME. */
  intensity: string;
  /** mm/h when the publisher sent one, else null. */
  rainRate: number | null;
  geometry: StreamGeometry;
  centroid: StreamGeoPoint;
  /** km² */
  areaKm2: number;
  /** null when the feed sent no motion. */
  motion: StreamMotion | null;
  revision: number;
}

/** Why a stream ended (the `end` event's reason). */
export type StreamEndReason =
  /** The client read too slowly: more than bufferLimit events were waiting for it. */
  | 'SLOW_CONSUMER'
  /** The stream reached maxDurationSeconds; reconnect (with a fresh access token if it expired). */
  | 'MAX_DURATION'
  /** The gateway replica is shutting down; reconnect (another replica answers). */
  | 'SHUTTING_DOWN'
  /**
   * The user's role, status, API key, account or plan changed (identity.user-changed.v1): reconnect,
   * and the new stream carries what the user may now see (or the answer is an error saying why).
   */
  | 'ACCESS_CHANGED';

/** `event: end`, the last event before the server closes the stream. */
export interface EndEventData {
  reason: StreamEndReason;
  /** A sentence for people. */
  message: string;
}

/** Every event's data by its name. */
export interface StreamEventDataByName {
  ready: ReadyEventData;
  lightning: LightningEventData;
  thunderstorm: ThunderstormEventData;
  precipitation: PrecipitationEventData;
  end: EndEventData;
}

/** One parsed event, discriminated by its name. */
export type StreamEvent = { [N in StreamEventName]: { event: N; id?: string; data: StreamEventDataByName[N] } }[StreamEventName];
