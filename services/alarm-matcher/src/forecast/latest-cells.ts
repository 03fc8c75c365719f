import { supersedes, type CellForecast } from './forecast-cells.js';

/**
 * The latest forecast of every grid cell, held in memory by each instance: loaded from the database
 * at start and kept current by weather.forecast.v1, which every instance reads with a group of its
 * own (the shared group that stores the cells spreads the partitions over the instances). A slot
 * then evaluates without reading some 12,000 cells back from the database.
 */
export class LatestForecastCells {
  private readonly byCell = new Map<string, CellForecast>();

  get size(): number {
    return this.byCell.size;
  }

  /** Takes the cells that supersede what is held; a re-sent chunk of the same run replaces its cells. */
  apply(cells: readonly CellForecast[]): void {
    for (const cell of cells) {
      const held = this.byCell.get(cell.cellId);
      if (!held || !supersedes(held, cell)) this.byCell.set(cell.cellId, cell);
    }
  }

  all(): CellForecast[] {
    return [...this.byCell.values()];
  }

  newestIssueMs(): number | undefined {
    let newest: number | undefined;
    for (const cell of this.byCell.values()) if (newest === undefined || cell.issueMs > newest) newest = cell.issueMs;
    return newest;
  }

  /** Forgets cells of runs issued before `issueMs` (cells no newer run covers), as housekeeping does in the database. */
  pruneIssuedBefore(issueMs: number): number {
    let pruned = 0;
    for (const [id, cell] of this.byCell) {
      if (cell.issueMs < issueMs) {
        this.byCell.delete(id);
        pruned++;
      }
    }
    return pruned;
  }
}
