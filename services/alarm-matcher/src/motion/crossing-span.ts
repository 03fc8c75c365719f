/**
 * When a moving polygon touches an area, in minutes from the time of its position (negative: before).
 * Asked with `exit: false`, a crossing holds the entry only (exitMin undefined).
 */
export interface Crossing {
  /** First contact; equal to the window's start when it touches from the start. */
  entryMin: number;
  /** Last contact; undefined when it still touches at the window's end (it leaves later, if at all). */
  exitMin: number | undefined;
  /** Whether it touched at the window's start. */
  touchingAtStart: boolean;
}
