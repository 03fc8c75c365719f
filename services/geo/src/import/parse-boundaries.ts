import { distanceToMultiPolygonM, type MultiPolygon, type Position } from '@stormhook/geometry';
import type { Logger } from '@stormhook/logger';
import { areaKey, parentLevel, type Area } from '../domain/area.js';
import { BOUNDARY_FILES, type BoundaryFileSpec } from './boundary-files.js';
import type { FileReport, RejectedFeature } from './import-report.js';
import { readSourceFile, type ReadOptions } from './read-source.js';
import { largestPolygon } from '../domain/geometry/ring.js';
import { validateFeature } from './validate-feature.js';

/** How far a parentless feature's centre may lie from a parent area and still be given it. */
const PARENT_BY_LOCATION_LIMIT_M = 2_000;

/** The vertex average of the largest part's exterior: inside for the compact shapes of admin areas. */
function centreOf(geometry: MultiPolygon): Position | undefined {
  const exterior = largestPolygon(geometry)?.exterior;
  if (!exterior || exterior.length < 2) return undefined;
  let lng = 0;
  let lat = 0;
  const n = exterior.length - 1; // the closing point repeats the first
  for (let i = 0; i < n; i++) {
    lng += exterior[i]![0];
    lat += exterior[i]![1];
  }
  return [lng / n, lat / n];
}

/** The area of `candidates` containing, or nearest within the limit to, the centre of `geometry`. */
function areaUnder(geometry: MultiPolygon, candidates: readonly Area[]): number | undefined {
  const centre = centreOf(geometry);
  if (!centre) return undefined;
  let best: { id: number; distance: number } | undefined;
  for (const area of candidates) {
    const distance = distanceToMultiPolygonM(centre, area.geometry);
    if (distance <= PARENT_BY_LOCATION_LIMIT_M && (!best || distance < best.distance)) best = { id: area.id, distance };
    if (distance === 0) break;
  }
  return best?.id;
}

export interface ParseOptions extends ReadOptions {
  /** Keys (`level:id`) of areas already stored: a parent may come from an earlier import. */
  readonly storedKeys?: ReadonlySet<string>;
  /** Log progress every this many features of a file. Default 250. */
  readonly progressEvery?: number;
  /** The mapping; defaults to {@link BOUNDARY_FILES}. */
  readonly files?: readonly BoundaryFileSpec[];
}

export interface ParsedBoundaries {
  readonly areas: Area[];
  readonly rejected: RejectedFeature[];
  readonly files: FileReport[];
}

function featuresOf(text: string): unknown[] | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return `not valid JSON: ${(error as Error).message}`;
  }
  const { type, features } = (json ?? {}) as { type?: unknown; features?: unknown };
  if (type !== 'FeatureCollection' || !Array.isArray(features)) return 'not a GeoJSON FeatureCollection';
  return features;
}

/**
 * Reads and validates every feature of every boundary file of a source (directory or URL), without
 * touching a database: the import stores the result, the benchmark and tests use it directly.
 */
export async function parseBoundaries(source: string, logger: Logger, options: ParseOptions = {}): Promise<ParsedBoundaries> {
  const progressEvery = options.progressEvery ?? 250;
  const accepted = new Set<string>();
  const areas: Area[] = [];
  const rejected: RejectedFeature[] = [];
  const files: FileReport[] = [];

  for (const spec of options.files ?? BOUNDARY_FILES) {
    const base = { file: spec.file, level: spec.level, country: spec.country };
    const read = await readSourceFile(source, spec.file, options);
    if (!read.found) {
      logger.warn({ file: read.location }, 'boundary file not found in source; skipped');
      files.push({ ...base, status: 'missing', features: 0, accepted: 0, rejected: 0 });
      continue;
    }
    const features = featuresOf(read.text);
    if (typeof features === 'string') {
      rejected.push({ file: spec.file, index: -1, reason: features });
      files.push({ ...base, status: 'invalid', features: 0, accepted: 0, rejected: 1 });
      continue;
    }

    const idsInFile = new Map<number, number>();
    const up = parentLevel(spec.level);
    const parentExists = (id: number) => {
      if (!up) return false;
      const key = areaKey({ level: up, id });
      return accepted.has(key) || (options.storedKeys?.has(key) ?? false);
    };
    const parentCandidates = up ? areas.filter((a) => a.level === up) : [];
    const parentByLocation = (geometry: MultiPolygon) => areaUnder(geometry, parentCandidates);
    let fileRejected = 0;
    for (let index = 0; index < features.length; index++) {
      const outcome = validateFeature(features[index], { spec, accepted: idsInFile, parentExists, parentByLocation });
      if (outcome.ok) {
        idsInFile.set(outcome.area.id, index);
        accepted.add(areaKey(outcome.area));
        areas.push(outcome.area);
      } else {
        fileRejected++;
        rejected.push({ file: spec.file, index, ...(outcome.id !== undefined ? { id: outcome.id } : {}), reason: outcome.reason });
      }
      const done = index + 1;
      if (features.length > progressEvery && (done % progressEvery === 0 || done === features.length)) {
        logger.info({ file: spec.file, done, total: features.length }, 'validating boundary features');
      }
    }
    files.push({ ...base, status: 'read', features: features.length, accepted: idsInFile.size, rejected: fileRejected });
    logger.info({ file: spec.file, features: features.length, accepted: idsInFile.size, rejected: fileRejected }, 'boundary file read');
  }
  return { areas, rejected, files };
}
