import type { FileReport, ImportReport, RejectedFeature } from '../import/import-report.js';

/** Rejects kept per run: enough to fix a source, bounded so one broken file cannot bloat the document. */
export const STORED_REJECTS = 100;

export interface ImportRunDocument {
  source: string;
  startedAt: Date;
  finishedAt: Date;
  durationMs: number;
  files: FileReport[];
  accepted: number;
  unchanged: number;
  inserted: number;
  updated: number;
  rejectedCount: number;
  /** The first {@link STORED_REJECTS} rejects. */
  rejected: RejectedFeature[];
}

export function importRunDocument(report: ImportReport, finishedAt: Date): ImportRunDocument {
  return {
    source: report.source,
    startedAt: report.startedAt,
    finishedAt,
    durationMs: report.durationMs,
    files: [...report.files],
    accepted: report.accepted,
    unchanged: report.unchanged,
    inserted: report.inserted,
    updated: report.updated,
    rejectedCount: report.rejected.length,
    rejected: report.rejected.slice(0, STORED_REJECTS),
  };
}
