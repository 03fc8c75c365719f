import { EventTypes, TopicNames, type EventType, type TopicName } from '@stormhook/kafka';
import { enumValue, feedV1, weatherV1 } from '@stormhook/proto';
import { cellRecord, flashes } from './convection.js';
import { forecastRun } from './forecast-gen.js';
import { extrapolatedCenter, observedMotion } from './motion.js';
import { MAX_MOTION_NOISE, type SimOptions } from './options.js';
import { bandPolygons, nestedContours } from './radar.js';
import { APPROACH_DEMO, stateAt, StormCatalogue, type StormSystem } from './storms.js';

/** One record ready for a feed topic. */
export interface SimRecord {
  topic: TopicName;
  eventType: EventType;
  /** Kafka key: the source id, so every version of one event stays in one partition, in order. */
  key: string;
  value: Uint8Array;
}

export interface SimTick {
  /** End of the tick, epoch ms: every record describes weather at or before it (nowcasts excepted). */
  timeMs: number;
  records: SimRecord[];
}

function stamp(t: number): string {
  return new Date(t).toISOString().slice(0, 16).replace(/[-:]/g, '');
}

const record = {
  precipitation: (m: feedV1.PrecipitationObservation): SimRecord => ({
    topic: TopicNames.FeedPrecipitation,
    eventType: EventTypes.PrecipitationObservation,
    key: m.sourceEventId,
    value: feedV1.PrecipitationObservation.encode(m),
  }),
  lightning: (m: feedV1.LightningStrike): SimRecord => ({
    topic: TopicNames.FeedLightning,
    eventType: EventTypes.LightningStrike,
    key: m.sourceEventId,
    value: feedV1.LightningStrike.encode(m),
  }),
  thunderstorm: (m: feedV1.ThunderstormCell): SimRecord => ({
    topic: TopicNames.FeedThunderstorm,
    eventType: EventTypes.ThunderstormCell,
    key: m.sourceEventId,
    value: feedV1.ThunderstormCell.encode(m),
  }),
  forecast: (m: feedV1.ForecastGrid): SimRecord => ({
    topic: TopicNames.FeedForecast,
    eventType: EventTypes.ForecastGrid,
    key: `${m.runId}#${m.chunkIndex}`,
    value: feedV1.ForecastGrid.encode(m),
  }),
};

/**
 * Synthetic weather over a region, as the four feed publishers would send it. Deterministic: the
 * records of a tick depend only on the options and the tick's time, never on the wall clock or on
 * earlier ticks, so a run is repeatable from its seed and any two runs agree where they overlap.
 */
export class WeatherSimulator {
  private readonly catalogue: StormCatalogue;

  constructor(readonly opts: SimOptions) {
    if (opts.tickMs <= 0 || opts.scanMs % opts.tickMs !== 0) throw new Error('scanMs must be a positive multiple of tickMs');
    if (opts.demoApproach && APPROACH_DEMO.scanMs % opts.tickMs !== 0)
      throw new Error(`the approach demo scans every ${APPROACH_DEMO.scanMs} ms: tickMs must divide it`);
    if (!(opts.motionNoise >= 0 && opts.motionNoise <= MAX_MOTION_NOISE)) throw new Error(`motionNoise must be 0 to ${MAX_MOTION_NOISE}`);
    this.catalogue = new StormCatalogue(opts);
  }

  /** Ticks are aligned on the epoch, so every run puts scans and forecast runs at the same instants. */
  alignUp(t: number): number {
    return Math.ceil(t / this.opts.tickMs) * this.opts.tickMs;
  }

  /** The last forecast run issued at or before t: what a new subscriber to the feed would want first. */
  latestRunAt(t: number): SimRecord[] {
    if (!this.opts.forecast.enabled) return [];
    const every = this.opts.forecast.everyMs;
    return forecastRun(Math.floor(t / every) * every, this.opts).map(record.forecast);
  }

  /** Systems alive at t, oldest first. */
  systemsAt(t: number): StormSystem[] {
    return this.catalogue.aliveAt(t);
  }

  /** Systems alive at some instant of (from, to): with stateAt and cellPolygonAt, the truth a benchmark scores against. */
  systemsBetween(from: number, to: number): StormSystem[] {
    return this.catalogue.aliveBetween(from, to);
  }

  /** Everything published at the end of the tick ending at `t` (a multiple of tickMs). */
  tick(t: number): SimRecord[] {
    const { opts } = this;
    const systems = this.catalogue.aliveAt(t);
    const out: SimRecord[] = [];
    for (const system of systems) {
      for (const strike of flashes(system, t, opts.tickMs, opts.seed)) out.push(record.lightning(strike));
    }
    for (const system of systems) {
      if (t % opts.scanMs === 0) {
        out.push(...this.scan(system, t, 0));
        for (const lead of opts.nowcastLeadsMin) out.push(...this.scan(system, t, lead * 60_000));
      }
      // The cell tracker may scan faster than the radar products (the approach demo's cells do).
      const cellScanMs = system.scanMs ?? opts.scanMs;
      if (t % cellScanMs !== 0) continue;
      const cell = cellRecord(system, t, cellScanMs, opts.seed);
      if (cell) out.push(record.thunderstorm(cell));
    }
    if (opts.forecast.enabled && t % opts.forecast.everyMs === 0) {
      out.push(...forecastRun(t, opts).map(record.forecast));
    }
    return out;
  }

  /**
   * Radar (lead 0) or nowcast precipitation of one system: one record per intensity band. Both carry
   * the motion observed at the scan, and a nowcast puts the rain where that motion takes it, not where
   * the storm will really be: the feed never tells what only the future knows about the track.
   */
  private scan(system: StormSystem, t: number, leadMs: number): SimRecord[] {
    const valid = t + leadMs;
    const now = stateAt(system, t);
    const state = stateAt(system, valid);
    if (!now || !state) return [];
    const motion = observedMotion(system, t);
    const center = leadMs === 0 ? now.center : extrapolatedCenter(system, t, leadMs);
    const bands = bandPolygons(center, nestedContours(system, state, valid), state);
    const suffix = leadMs === 0 ? '' : `-nc${leadMs / 60_000}`;
    return bands.map((band) => {
      const base = {
        sourceEventId: `sim${this.opts.seed}-${system.id}-${band.intensity}-${stamp(t)}${suffix}`,
        version: 0,
        updatedEpochMs: 0,
        radarTimestampEpochMs: valid,
        forecast: leadMs > 0,
        geometry: band.polygon ?? null,
        motion: { speedKmh: Math.round(motion.speedKmh * 10) / 10, directionDeg: Math.round(motion.directionDeg) % 360 },
      };
      // Radar products classify; nowcasts here send rain rates, so both paths of the contract are used.
      return record.precipitation(
        leadMs === 0 ? { ...base, intensity: enumValue(weatherV1.PrecipitationIntensity, band.intensity) } : { ...base, rainRateMmPerH: band.meanRateMmPerH },
      );
    });
  }

  /** Ticks from `from` (aligned up) while before `to`; pure, lazily generated. */
  *ticks(from: number, to: number): Generator<SimTick> {
    for (let t = this.alignUp(from); t < to; t += this.opts.tickMs) {
      yield { timeMs: t, records: this.tick(t) };
    }
  }
}
