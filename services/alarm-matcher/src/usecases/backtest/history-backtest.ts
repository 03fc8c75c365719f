import type { BBox } from '@stormhook/geometry';
import { decodeHistoryRecord, type WeatherRecord } from '../../decoding/history-records.js';
import { isRealtime, type ForecastRegistration, type RealtimeRegistration } from '../../domain/registration.js';
import { Grid } from '../../geometry/grid.js';
import { RegistrationIndex, type WatchedArea } from '../../matching/registration-index.js';
import type { GeoPort } from '../../ports/geo-port.js';
import type { Span, WeatherHistory } from '../../ports/weather-history.js';
import { AreaShapes, areaRefOf } from '../index/area-shapes.js';
import type { BacktestCoverage, BacktestInput, BacktestOutcome, BacktestRunner, BacktestSweep } from './backtest-outcome.js';
import { coverageOf } from './backtest-coverage.js';
import { forecastRead, realtimeReads, type KindRead } from './backtest-reach.js';
import { lightningAlarms, sweepPlan, TYPE_PREFIX } from './backtest-sweep.js';
import { samplesOf, tally } from './backtest-tally.js';
import { simulateForecast, type ForecastSettings } from './forecast-simulation.js';
import { RealtimeSimulation, type RealtimeSettings } from './realtime-simulation.js';
import { alarmCount, type SimulatedCallback } from './simulated-callback.js';

/** What the back-test needs: the history, geo for area shapes, and the settings the live matchers run with (config.ts). */
export interface HistoryBacktestDeps {
  history: WeatherHistory;
  geo: GeoPort;
  /** ALARM_THUNDERSTORM_GRACE_MS */
  thunderstormGraceMs: number;
  /** ALARM_PRECIPITATION_EXPIRY_MS */
  precipitationExpiryMs: number;
  /** ALARM_LIGHTNING_QUIET_PERIOD_MS */
  lightningQuietMs: number;
  /** ALARM_LIGHTNING_PERSIST_MS: the all-clear waits this much longer than the quiet period. */
  lightningPersistMs: number;
  /** ALARM_MAX_EVENT_AGE_MS */
  maxEventAgeMs: number;
  /** ALARM_SWEEP_INTERVAL_MS: ENDs and all-clears go out at the sweeper's ticks. */
  sweepIntervalMs: number;
  /** ALARM_FORECAST_CELL_MAX_DISTANCE_M */
  forecastCellMaxDistanceM: number;
  /** ALARM_FORECAST_RETENTION_MS */
  forecastRetentionMs: number;
}

/** The draft placed in a one-registration index, or the forecast alarm's area, and what to read for it. */
type Placed =
  | { kind: 'REALTIME'; registration: RealtimeRegistration; index: RegistrationIndex; area: WatchedArea; reads: KindRead[] }
  | { kind: 'FORECAST'; registration: ForecastRegistration; shapes: AreaShapes; reads: KindRead[] };

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/**
 * The back-test: a draft registration run over a past window of the weather history with the live
 * matching core, on a simulated clock (each record decided at the time the live path saw it, the
 * sweeper at its ticks, forecast slots at 04:00 and 16:00 UTC). Nothing is stored, claimed or
 * published. The answer counts the callbacks per Istanbul day and type, shows up to 20 of them as the
 * live path would have sent them (marked "simulation": true), says which parts of the window had data
 * of each kind, and tries the filter's main threshold at other values.
 */
export class HistoryBacktest implements BacktestRunner {
  constructor(private readonly deps: HistoryBacktestDeps) {}

  private get realtimeSettings(): RealtimeSettings {
    const d = this.deps;
    return {
      thunderstormGraceMs: d.thunderstormGraceMs,
      precipitationExpiryMs: d.precipitationExpiryMs,
      quietMs: d.lightningQuietMs,
      persistEveryMs: d.lightningPersistMs,
      maxAgeMs: d.maxEventAgeMs,
      sweepIntervalMs: d.sweepIntervalMs,
    };
  }

  private get forecastSettings(): ForecastSettings {
    return { maxCellDistanceM: this.deps.forecastCellMaxDistanceM, retentionMs: this.deps.forecastRetentionMs };
  }

  async run(input: BacktestInput): Promise<BacktestOutcome> {
    if (!Number.isFinite(input.fromMs)) throw new RangeError('from must be epoch milliseconds');
    if (!Number.isFinite(input.toMs) || input.toMs <= input.fromMs) throw new RangeError('to must be epoch milliseconds after from');
    const placed = await this.place(input.registration);
    const reads = await Promise.all(
      placed.reads.map((read) => this.deps.history.read({ fromMs: input.fromMs, toMs: input.toMs, box: read.box, kinds: read.kinds })),
    );
    const warnings: string[] = [];
    const retainedFromMs = Math.max(...reads.map((r) => r.retainedFromMs));
    const fromMs = Math.max(input.fromMs, Number.isFinite(retainedFromMs) ? retainedFromMs : input.fromMs);
    const toMs = input.toMs;
    if (fromMs > input.fromMs) {
      warnings.push(`the weather history holds data from ${iso(fromMs)}: the window was clipped to start there instead of ${iso(input.fromMs)}`);
    }
    let undecodable = 0;
    const records: WeatherRecord[] = [];
    for (const read of reads) {
      for await (const record of read.records) {
        if (record.ingestedMs < fromMs || record.ingestedMs >= toMs) continue;
        let decoded: ReturnType<typeof decodeHistoryRecord>;
        try {
          decoded = decodeHistoryRecord(record);
        } catch {
          decoded = { ok: false, reason: 'not protobuf' };
        }
        if (decoded.ok) records.push(decoded.value);
        else undecodable++;
      }
    }
    if (undecodable > 0) warnings.push(`${undecodable} weather records could not be decoded and were skipped, as the live path skips them`);
    // The reads are each in ingestion order; merged, the records run in the order the live path saw them.
    if (reads.length > 1) records.sort((a, b) => a.ingestedMs - b.ingestedMs);
    const window = { fromMs, toMs };
    const callbacks = this.simulate(placed, records, window);
    const { days, byType } = tally(callbacks, fromMs, toMs);
    const coverage: BacktestCoverage[] = [];
    placed.reads.forEach((read, i) => {
      for (const kind of read.kinds) coverage.push(coverageOf(kind, reads[i]!.coverage.get(kind) ?? ([] as Span[]), fromMs, toMs));
    });
    const sweep = this.sweep(placed, records, callbacks, window);
    return {
      fromMs,
      toMs,
      callbacks: callbacks.length,
      ...(callbacks.length > 0 ? { firstCallbackMs: callbacks[0]!.atMs, lastCallbackMs: callbacks[callbacks.length - 1]!.atMs } : {}),
      days,
      byType,
      samples: samplesOf(callbacks),
      coverage,
      ...(sweep ? { sweep } : {}),
      warnings,
    };
  }

  /** The draft in the live index code (its area shape from geo), and the reads its filter needs. */
  private async place(registration: BacktestInput['registration']): Promise<Placed> {
    const grid = new Grid();
    const shapes = new AreaShapes(this.deps.geo, grid);
    if (isRealtime(registration)) {
      if (registration.kind === 'GEOMETRY') await shapes.ensure([areaRefOf(registration.area)]);
      const area = shapes.watchedArea(registration);
      if (!area) throw new RangeError(`geo holds no boundary of the registration's area`);
      const index = new RegistrationIndex(grid);
      index.upsert(registration, area);
      return { kind: 'REALTIME', registration, index, area, reads: realtimeReads(registration, area) };
    }
    const boundary = registration.boundary;
    let box: BBox;
    if (boundary.type === 'POINT') {
      box = { minLng: boundary.point.lng, minLat: boundary.point.lat, maxLng: boundary.point.lng, maxLat: boundary.point.lat };
    } else {
      await shapes.ensure([{ level: 'DISTRICT', id: boundary.districtId }]);
      const district = shapes.get({ level: 'DISTRICT', id: boundary.districtId });
      if (!district) throw new RangeError(`geo holds no boundary of district ${boundary.districtId}`);
      box = district.bbox;
    }
    return { kind: 'FORECAST', registration, shapes, reads: [forecastRead(box, this.deps.forecastCellMaxDistanceM)] };
  }

  /**
   * The filter's main threshold at each candidate value. What is counted is alarms: the weather events
   * (a strike, a storm, a rain area, a forecast slot) that would have started one, each once. Follow-up
   * callbacks are not monotonic in a threshold (a stricter severity turns one storm wavering around it
   * into several START/END pairs), alarms are: an event that passes a stricter value passes the laxer
   * ones too. The other kinds' alarms are the draft's own; only the swept kind is run again, from the
   * records decoded once.
   */
  private sweep(
    placed: Placed,
    records: readonly WeatherRecord[],
    callbacks: readonly SimulatedCallback[],
    window: { fromMs: number; toMs: number },
  ): BacktestSweep | undefined {
    const plan = sweepPlan(placed.registration);
    if (!plan) return undefined;
    const others = alarmCount(callbacks.filter((c) => !c.callbackType.startsWith(TYPE_PREFIX[plan.kind])));
    let counts: number[];
    if (plan.kind === 'FORECAST') {
      counts = plan.candidates.map((c) =>
        alarmCount(this.simulate({ ...(placed as Extract<Placed, { kind: 'FORECAST' }>), registration: c.registration }, records, window)),
      );
    } else {
      // The draft's run is over: its index takes each candidate in turn (same id, same area).
      const { index, area } = placed as Extract<Placed, { kind: 'REALTIME' }>;
      if (plan.kind === 'LIGHTNING') {
        counts = lightningAlarms(
          plan.candidates.map((c) => c.registration),
          index,
          area,
          records,
          this.realtimeSettings,
        );
      } else {
        const kindRecords = records.filter((r) => r.kind === plan.kind);
        counts = plan.candidates.map((c) => {
          index.upsert(c.registration, area);
          return alarmCount(new RealtimeSimulation(index, this.realtimeSettings).run(kindRecords, window.toMs));
        });
      }
    }
    return { field: plan.field, current: plan.current, points: plan.candidates.map((c, i) => ({ value: c.value, callbacks: others + counts[i]! })) };
  }

  /** The callbacks of the draft over the records, in time order. */
  private simulate(placed: Placed, records: readonly WeatherRecord[], window: { fromMs: number; toMs: number }): SimulatedCallback[] {
    if (placed.kind === 'REALTIME') return new RealtimeSimulation(placed.index, this.realtimeSettings).run(records, window.toMs);
    const { shapes } = placed;
    return simulateForecast(records, placed.registration, (id) => shapes.get({ level: 'DISTRICT', id }), this.forecastSettings, window);
  }
}
