import { enumNames, enumValue, queryV1 } from '@stormhook/proto';

/** The kinds the history keeps, one per weather topic, in the proto's order (LIGHTNING, THUNDERSTORM, PRECIPITATION, FORECAST). */
export const HISTORY_KINDS = enumNames(queryV1.HistoryKind, 'HISTORY_KIND_');
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** A kind as one small number in packed blocks and document ids: its proto wire value. */
export function kindCode(kind: HistoryKind): number {
  return HISTORY_KINDS.indexOf(kind) + 1;
}

export function kindOfCode(code: number): HistoryKind {
  const kind = HISTORY_KINDS[code - 1];
  if (kind === undefined) throw new Error(`unknown history kind code ${code}`);
  return kind;
}

export function protoKind(kind: HistoryKind): queryV1.HistoryKind {
  return enumValue(queryV1.HistoryKind, kind);
}
