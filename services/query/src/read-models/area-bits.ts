/**
 * Subscription areas as bits: each area key (`TUR:34`) gets a bit the first time it is seen, so an
 * event's areas fit in a few machine words and "does this event touch the caller's geography" is
 * an AND per word. 128 bits cover Turkey's 81 provinces and Northern Cyprus with room to spare.
 */
export const AREA_WORDS = 4;
export const MAX_AREAS = AREA_WORDS * 32;

export class AreaBits {
  private readonly bits = new Map<string, number>();
  private readonly keys: string[] = [];

  /** The bit of `key`, assigning the next free one; undefined when all are taken. */
  bitOf(key: string): number | undefined {
    let bit = this.bits.get(key);
    if (bit === undefined) {
      if (this.keys.length >= MAX_AREAS) return undefined;
      bit = this.keys.length;
      this.bits.set(key, bit);
      this.keys.push(key);
    }
    return bit;
  }

  /** The bit of `key` if it was ever seen (an unseen area has no events). */
  existingBit(key: string): number | undefined {
    return this.bits.get(key);
  }

  keyOf(bit: number): string | undefined {
    return this.keys[bit];
  }

  /** The mask of a set of keys, written into `out` (AREA_WORDS words). */
  maskOf(keys: Iterable<string>, out: Uint32Array, existingOnly = false): Uint32Array {
    out.fill(0);
    for (const key of keys) {
      const bit = existingOnly ? this.existingBit(key) : this.bitOf(key);
      if (bit !== undefined) out[bit >>> 5]! |= 1 << (bit & 31);
    }
    return out;
  }
}
