import type { ForecastCell } from './forecast-store.js';

/** Answers remembered per cell at most; a full cell's memory starts over. */
const MAX_PER_CELL = 64;

/**
 * Computed forecast series, remembered per grid cell. A cell object is never changed after it is
 * stored (a new revision or run brings new cell objects), so an answer keyed by the cell object and
 * the request's parameters stays exact for as long as the cell answers, and is dropped with it.
 * Requests for a popular place within one hour then format times and place the sun once, not per
 * request (it was most of the query's CPU for a forecast).
 */
export class ForecastMemo<T> {
  private readonly byCell = new WeakMap<ForecastCell, Map<string, T>>();

  constructor(private readonly maxPerCell = MAX_PER_CELL) {}

  get(cell: ForecastCell, key: string, compute: () => T): T {
    let answers = this.byCell.get(cell);
    if (!answers) {
      answers = new Map();
      this.byCell.set(cell, answers);
    }
    let answer = answers.get(key);
    if (answer === undefined) {
      answer = compute();
      if (answers.size >= this.maxPerCell) answers.clear();
      answers.set(key, answer);
    }
    return answer;
  }
}
