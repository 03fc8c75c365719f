import { inArea, TURKEY_EXTENT } from '@stormhook/limits';
import type { AreaIndex } from '@stormhook/access';

/**
 * The IANA timezone of a point, offline. The service covers Turkey and Northern Cyprus, so a small
 * rule list is exact where it matters and reasonable around it:
 *
 * 1. inside a province of TUR (from the geo service's boundaries): Europe/Istanbul;
 * 2. inside CTR (Northern Cyprus): Asia/Famagusta, the IANA zone of Northern Cyprus;
 * 3. elsewhere on the island of Cyprus: Asia/Nicosia;
 * 4. within Turkey's bounding box (coastal waters, border strips the simplified outlines miss):
 *    Europe/Istanbul;
 * 5. anywhere else (only operators can query outside the subscription areas): the nautical zone
 *    of the longitude, Etc/GMT-N for UTC+N.
 *
 * Without the boundaries (geo unreachable at start) rules 3 to 5 still answer.
 */
const ZONES_BY_COUNTRY: Readonly<Record<string, string>> = { TUR: 'Europe/Istanbul', CTR: 'Asia/Famagusta' };
const CYPRUS = { minLng: 32.2, minLat: 34.5, maxLng: 34.65, maxLat: 35.75 };

export function timezoneAt(lng: number, lat: number, areas?: AreaIndex): string {
  const area = areas?.areaAt(lng, lat);
  const zone = area ? ZONES_BY_COUNTRY[area.countryCode] : undefined;
  if (zone) return zone;
  if (inArea(CYPRUS, lng, lat)) return 'Asia/Nicosia';
  if (inArea(TURKEY_EXTENT, lng, lat)) return 'Europe/Istanbul';
  const hours = Math.round(lng / 15);
  return hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`;
}

interface LocalParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** Offset of local time from UTC, minutes. */
  offsetMinutes: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** Offset of `zone` from UTC at `epochMs`, read from the ICU formatter (the slow part). */
function formattedOffsetMinutes(epochMs: number, zone: string): number {
  const name =
    formatter(zone)
      .formatToParts(new Date(epochMs))
      .find((p) => p.type === 'timeZoneName')?.value ?? '';
  const offset = /GMT([+-])(\d{2}):?(\d{2})?/.exec(name);
  return offset ? (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3] ?? 0)) : 0;
}

/**
 * Offsets change only at transitions, and every transition of the zones served here (and of all
 * current IANA zones) falls on a quarter hour of UTC, so one offset holds for a whole quarter hour.
 * A forecast answer formats up to hundreds of timestamps; formatToParts for each was the gateway
 * benchmark's top frame, so offsets are remembered per zone and quarter hour (bounded).
 */
const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_OFFSETS = 50_000;
const offsets = new Map<string, number>();

function offsetMinutesAt(epochMs: number, zone: string): number {
  const bucket = Math.floor(epochMs / QUARTER_HOUR_MS);
  const key = `${zone}|${bucket}`;
  let minutes = offsets.get(key);
  if (minutes === undefined) {
    if (offsets.size >= MAX_CACHED_OFFSETS) offsets.clear();
    minutes = formattedOffsetMinutes(bucket * QUARTER_HOUR_MS, zone);
    offsets.set(key, minutes);
  }
  return minutes;
}

export function localParts(epochMs: number, zone: string): LocalParts {
  const offsetMinutes = offsetMinutesAt(epochMs, zone);
  // The wall clock is UTC shifted by the offset; read it with the UTC getters.
  const wall = new Date(epochMs + offsetMinutes * 60_000);
  return {
    year: wall.getUTCFullYear(),
    month: wall.getUTCMonth() + 1,
    day: wall.getUTCDate(),
    hour: wall.getUTCHours(),
    minute: wall.getUTCMinutes(),
    offsetMinutes,
  };
}

const two = (n: number) => String(n).padStart(2, '0');

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${two(Math.floor(m / 60))}:${two(m % 60)}`;
}

/** `2026-11-21T15:00+03:00`: the instant as local time in `zone`, with its offset. */
export function localDateTime(epochMs: number, zone: string): string {
  const p = localParts(epochMs, zone);
  return `${p.year}-${two(p.month)}-${two(p.day)}T${two(p.hour)}:${two(p.minute)}${offsetText(p.offsetMinutes)}`;
}

/** `2026-11-21`: the local calendar date of the instant in `zone`. */
export function localDate(epochMs: number, zone: string): string {
  const p = localParts(epochMs, zone);
  return `${p.year}-${two(p.month)}-${two(p.day)}`;
}

/** The instant local midnight starts the local day that contains `epochMs`, plus `addDays` days. */
export function localMidnight(epochMs: number, zone: string, addDays = 0): number {
  const p = localParts(epochMs, zone);
  const wall = Date.UTC(p.year, p.month - 1, p.day + addDays);
  // Local wall time minus the offset; the offset of that instant may differ (DST), so look twice.
  let guess = wall - p.offsetMinutes * 60_000;
  guess = wall - localParts(guess, zone).offsetMinutes * 60_000;
  return guess;
}
