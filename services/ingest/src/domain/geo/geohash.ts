import type { BBox } from '@stormhook/geometry';

const BASE32 = '0123456789bcdefghjkmnpqrstuvwxyz';

/**
 * Standard geohash (Niemeyer) of a point: interleaved longitude/latitude bisections, 5 bits per
 * base32 character. Public and well known, so any consumer (query, alarm-matcher, a data engineer
 * with a notebook) can recompute an area key without our code.
 */
export function geohash(lat: number, lng: number, precision: number): string {
  let latLo = -90;
  let latHi = 90;
  let lngLo = -180;
  let lngHi = 180;
  let out = '';
  let bits = 0;
  let value = 0;
  let evenBit = true; // geohash starts with a longitude bit
  while (out.length < precision) {
    if (evenBit) {
      const mid = (lngLo + lngHi) / 2;
      if (lng >= mid) {
        value = (value << 1) | 1;
        lngLo = mid;
      } else {
        value <<= 1;
        lngHi = mid;
      }
    } else {
      const mid = (latLo + latHi) / 2;
      if (lat >= mid) {
        value = (value << 1) | 1;
        latLo = mid;
      } else {
        value <<= 1;
        latHi = mid;
      }
    }
    evenBit = !evenBit;
    if (++bits === 5) {
      out += BASE32.charAt(value);
      bits = 0;
      value = 0;
    }
  }
  return out;
}

/** The cell a geohash names, as a box in decimal degrees. */
export function geohashBounds(hash: string): BBox {
  let latLo = -90;
  let latHi = 90;
  let lngLo = -180;
  let lngHi = 180;
  let evenBit = true;
  for (const char of hash) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error(`"${hash}" is not a geohash`);
    for (let bit = 4; bit >= 0; bit--) {
      const on = ((index >> bit) & 1) === 1;
      if (evenBit) {
        const mid = (lngLo + lngHi) / 2;
        if (on) lngLo = mid;
        else lngHi = mid;
      } else {
        const mid = (latLo + latHi) / 2;
        if (on) latLo = mid;
        else latHi = mid;
      }
      evenBit = !evenBit;
    }
  }
  return { minLng: lngLo, minLat: latLo, maxLng: lngHi, maxLat: latHi };
}
