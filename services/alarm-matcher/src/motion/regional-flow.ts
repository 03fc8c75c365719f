import type { Velocity } from './motion.js';

/**
 * How long a motion observed elsewhere keeps informing the regional flow: the steering wind that
 * carries the cells changes over hours, not minutes.
 */
export const FLOW_MEMORY_MS = 3 * 3_600_000;

/**
 * The mean motion of every event of one kind this instance has seen lately (thunderstorm cells, or
 * rain areas): an exponentially fading average of their feed vectors, each revision counting once
 * and fading with a time constant of FLOW_MEMORY_MS. Cells drift with the wind that steers them all,
 * so a young track, whose own mean is one or two noisy vectors, leans on this one (damping.ts).
 * Three numbers per kind, whatever the number of events; a revision older than the newest still
 * counts, faded by how much older it is, so the order in which partitions deliver does not matter.
 */
export class RegionalFlow {
  private east = 0;
  private north = 0;
  private weight = 0;
  private latestMs = Number.NEGATIVE_INFINITY;

  constructor(private readonly memoryMs = FLOW_MEMORY_MS) {}

  add(timeMs: number, velocity: Velocity): void {
    if (timeMs >= this.latestMs) {
      const fade = this.weight === 0 ? 0 : Math.exp(-(timeMs - this.latestMs) / this.memoryMs);
      this.east = this.east * fade + velocity.eastKmPerMin;
      this.north = this.north * fade + velocity.northKmPerMin;
      this.weight = this.weight * fade + 1;
      this.latestMs = timeMs;
      return;
    }
    const fade = Math.exp(-(this.latestMs - timeMs) / this.memoryMs);
    this.east += velocity.eastKmPerMin * fade;
    this.north += velocity.northKmPerMin * fade;
    this.weight += fade;
  }

  /** The mean velocity and how many (faded) revisions it rests on; undefined before the first one. */
  mean(): { velocity: Velocity; weight: number } | undefined {
    if (this.weight === 0) return undefined;
    return { velocity: { eastKmPerMin: this.east / this.weight, northKmPerMin: this.north / this.weight }, weight: this.weight };
  }
}
