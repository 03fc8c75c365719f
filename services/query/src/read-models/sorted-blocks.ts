/**
 * Slots ordered by (time, event id): a list of small sorted blocks, so an insert or a removal
 * moves at most a block's worth of numbers (a single sorted array of a million entries would move
 * megabytes per out-of-order insert), and a window is found by binary search over block bounds.
 * Events arrive almost in time order, so inserts nearly always land in the last block.
 */

const MAX_BLOCK = 1024;

interface Block {
  times: number[];
  slots: number[];
}

export class SortedBlocks {
  private blocks: Block[] = [];
  private count = 0;

  /** `idOf(slot)` breaks ties between equal times, so the order is the same on every instance. */
  constructor(private readonly idOf: (slot: number) => string) {}

  get size(): number {
    return this.count;
  }

  /** Negative when (t1, slot1) sorts before (t2, slot2). */
  private compare(t1: number, s1: number, t2: number, s2: number): number {
    if (t1 !== t2) return t1 - t2;
    if (s1 === s2) return 0;
    const a = this.idOf(s1);
    const b = this.idOf(s2);
    return a < b ? -1 : a > b ? 1 : 0;
  }

  /** Index of the first block whose last key is >= (t, slot); blocks.length when none. */
  private blockFor(t: number, slot: number): number {
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = this.blocks[mid]!;
      const last = b.times.length - 1;
      if (this.compare(b.times[last]!, b.slots[last]!, t, slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Position inside `block` of the first key >= (t, slot). */
  private positionIn(block: Block, t: number, slot: number): number {
    let lo = 0;
    let hi = block.times.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(block.times[mid]!, block.slots[mid]!, t, slot) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  insert(t: number, slot: number): void {
    this.count++;
    if (this.blocks.length === 0) {
      this.blocks.push({ times: [t], slots: [slot] });
      return;
    }
    let index = this.blockFor(t, slot);
    if (index === this.blocks.length) index--; // after every key: append to the last block
    const block = this.blocks[index]!;
    const at = this.positionIn(block, t, slot);
    block.times.splice(at, 0, t);
    block.slots.splice(at, 0, slot);
    if (block.times.length > MAX_BLOCK) {
      const half = block.times.length >> 1;
      const right: Block = { times: block.times.splice(half), slots: block.slots.splice(half) };
      this.blocks.splice(index + 1, 0, right);
    }
  }

  /** Removes (t, slot); false when it is not there. */
  remove(t: number, slot: number): boolean {
    const index = this.blockFor(t, slot);
    const block = this.blocks[index];
    if (!block) return false;
    const at = this.positionIn(block, t, slot);
    if (block.slots[at] !== slot || block.times[at] !== t) return false;
    block.times.splice(at, 1);
    block.slots.splice(at, 1);
    this.count--;
    if (block.times.length === 0) this.blocks.splice(index, 1);
    return true;
  }

  /**
   * Calls `visit(slot, time)` for every key with from <= time <= to, newest first; stops when
   * `visit` returns false.
   */
  descending(from: number, to: number, visit: (slot: number, time: number) => boolean | void): void {
    // First block holding a time > to, then walk backwards.
    let lo = 0;
    let hi = this.blocks.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const b = this.blocks[mid]!;
      if (b.times[0]! <= to) lo = mid + 1;
      else hi = mid;
    }
    for (let bi = lo - 1; bi >= 0; bi--) {
      const block = this.blocks[bi]!;
      const { times, slots } = block;
      for (let i = times.length - 1; i >= 0; i--) {
        const time = times[i]!;
        if (time > to) continue;
        if (time < from) return;
        if (visit(slots[i]!, time) === false) return;
      }
    }
  }

  /** Every key with time < before, oldest first (for retention). */
  olderThan(before: number): Array<{ time: number; slot: number }> {
    const out: Array<{ time: number; slot: number }> = [];
    for (const block of this.blocks) {
      for (let i = 0; i < block.times.length; i++) {
        if (block.times[i]! >= before) return out;
        out.push({ time: block.times[i]!, slot: block.slots[i]! });
      }
    }
    return out;
  }
}
