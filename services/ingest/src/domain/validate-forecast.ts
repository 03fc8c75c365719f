import { bboxContains } from '@stormhook/geometry';
import { enumName, weatherV1, type feedV1 } from '@stormhook/proto';
import { areaKey } from './area-key.js';
import { describeBox } from './geo/validate-geometry.js';
import { FORECAST_METRICS, isForecastMetricName } from './forecast-metrics.js';
import type { EventBody, NormalisedRecord } from './normalised.js';
import { checkRange, checkSourceId, checkText, Problems, rejected, type Validated } from './problems.js';
import type { IngestRules } from './rules.js';
import { checkOptionalTime, checkTime } from './time-checks.js';

type ForecastRecord = Extract<NormalisedRecord, { feed: 'forecast' }>;

const HOUR_MS = 3_600_000;
export const MAX_HOURS = 384;
export const MAX_CELLS_PER_CHUNK = 500;
export const MAX_CHUNKS = 10_000;
const CELL_ID = /^[A-Za-z0-9][A-Za-z0-9._:,+-]{0,63}$/;

function checkHeader(problems: Problems, msg: feedV1.ForecastGrid, now: number, rules: IngestRules): void {
  checkSourceId(problems, 'run_id', msg.runId);
  checkRange(problems, 'version', msg.version, 0, Number.MAX_SAFE_INTEGER);
  checkOptionalTime(problems, 'updated_epoch_ms', msg.updatedEpochMs);
  if (msg.model.trim() === '') problems.add('model', 'is required');
  else checkText(problems, 'model', msg.model, 64);
  const issueOk = checkTime(problems, 'issue_epoch_ms', msg.issueEpochMs, now, rules);
  if (checkRange(problems, 'chunk_count', msg.chunkCount, 1, MAX_CHUNKS, 'chunks')) {
    checkRange(problems, 'chunk_index', msg.chunkIndex, 0, msg.chunkCount - 1, 'chunks');
  }
  if (msg.firstHourEpochMs % HOUR_MS !== 0 || msg.firstHourEpochMs <= 0) {
    problems.add('first_hour_epoch_ms', `${msg.firstHourEpochMs} is not a whole hour in epoch milliseconds`);
  } else if (issueOk && Math.abs(msg.firstHourEpochMs - msg.issueEpochMs) > 24 * HOUR_MS) {
    problems.add('first_hour_epoch_ms', 'lies more than 24 h from issue_epoch_ms');
  }
  checkRange(problems, 'hour_count', msg.hourCount, 1, MAX_HOURS, 'hours');
  checkRange(problems, 'cells', msg.cells.length, 1, MAX_CELLS_PER_CHUNK, 'cells');
}

function checkSeries(problems: Problems, path: string, series: feedV1.MetricSeries, hourCount: number): weatherV1.ForecastSeries | undefined {
  const name = enumName(weatherV1.ForecastMetric, series.metric);
  if (name === undefined || !isForecastMetricName(name)) {
    problems.add(`${path}.metric`, series.metric === 'FORECAST_METRIC_UNSPECIFIED' ? 'is required' : `unknown value ${String(series.metric)}`);
    return undefined;
  }
  if (series.values.length !== hourCount) {
    problems.add(`${path}.values`, `has ${series.values.length} values; hour_count says ${hourCount}`);
    return undefined;
  }
  const range = FORECAST_METRICS[name];
  for (const [i, value] of series.values.entries()) {
    // NaN marks a missing hour; anything else must be physically possible in the metric's unit.
    if (!Number.isNaN(value) && !(value >= range.min && value <= range.max)) {
      problems.add(`${path}.values[${i}]`, `${name} ${value} ${range.unit} is outside ${range.min} to ${range.max} ${range.unit}`);
      return undefined;
    }
  }
  return { metric: series.metric, values: series.values };
}

function checkCell(problems: Problems, path: string, cell: feedV1.GridCell, hourCount: number, rules: IngestRules): weatherV1.ForecastCell | undefined {
  if (!CELL_ID.test(cell.cellId)) {
    problems.add(`${path}.cell_id`, `"${cell.cellId.slice(0, 70)}" must be 1 to 64 characters of [A-Za-z0-9._:,+-] starting with a letter or digit`);
    return undefined;
  }
  const latOk = checkRange(problems, `${path}.latitude`, cell.latitude, -90, 90, 'degrees');
  const lngOk = checkRange(problems, `${path}.longitude`, cell.longitude, -180, 180, 'degrees');
  if (!latOk || !lngOk) return undefined;
  const location = { lng: cell.longitude, lat: cell.latitude };
  if (!bboxContains(rules.coverage, location.lng, location.lat)) {
    problems.add(path, `(${cell.latitude}, ${cell.longitude}) lies outside the covered area ${describeBox(rules.coverage)}`);
    return undefined;
  }
  if (cell.elevationM !== undefined && !checkRange(problems, `${path}.elevation_m`, cell.elevationM, -500, 9_000, 'm')) return undefined;
  if (cell.series.length === 0) {
    problems.add(`${path}.series`, 'is empty: a cell needs at least one metric');
    return undefined;
  }
  const seen = new Set<string>();
  const series: weatherV1.ForecastSeries[] = [];
  for (const [i, s] of cell.series.entries()) {
    if (seen.has(s.metric)) {
      problems.add(`${path}.series[${i}].metric`, `${s.metric} appears twice in the cell`);
      return undefined;
    }
    seen.add(s.metric);
    const checked = checkSeries(problems, `${path}.series[${i}]`, s, hourCount);
    if (!checked) return undefined;
    series.push(checked);
  }
  return { cellId: cell.cellId, location, ...(cell.elevationM !== undefined ? { elevationM: cell.elevationM } : {}), series };
}

/**
 * Validates one chunk of a forecast run and splits its cells by area key into ForecastEvent bodies,
 * so a forecast event can be partitioned like every other weather event.
 */
export function validateForecast(msg: feedV1.ForecastGrid, now: number, rules: IngestRules): Validated<ForecastRecord> {
  const problems = new Problems();
  checkHeader(problems, msg, now, rules);
  if (!problems.empty) return rejected(problems);

  const byArea = new Map<string, weatherV1.ForecastCell[]>();
  const ids = new Set<string>();
  for (const [i, wire] of msg.cells.entries()) {
    if (ids.has(wire.cellId)) {
      problems.add(`cells[${i}].cell_id`, `"${wire.cellId}" appears twice in the chunk`);
      return rejected(problems);
    }
    ids.add(wire.cellId);
    const cell = checkCell(problems, `cells[${i}]`, wire, msg.hourCount, rules);
    if (!cell) return rejected(problems);
    const key = areaKey(cell.location!);
    const list = byArea.get(key) ?? [];
    list.push(cell);
    byArea.set(key, list);
  }

  const sourceId = `${msg.runId}#${msg.chunkIndex}`;
  const events: Array<EventBody<weatherV1.ForecastEvent>> = [...byArea.keys()].sort().map((key) => ({
    eventId: `fcs_${msg.runId}.${msg.chunkIndex}.${key}`,
    sourceEventId: sourceId,
    areaKey: key,
    runId: msg.runId,
    model: msg.model,
    issueEpochMs: msg.issueEpochMs,
    runChunkIndex: msg.chunkIndex,
    runChunkCount: msg.chunkCount,
    firstHourEpochMs: msg.firstHourEpochMs,
    hourCount: msg.hourCount,
    cells: byArea.get(key)!,
  }));
  return {
    ok: true,
    value: {
      feed: 'forecast',
      sourceId,
      version: msg.version,
      updatedEpochMs: msg.updatedEpochMs,
      eventTimeEpochMs: msg.issueEpochMs,
      events,
    },
  };
}
