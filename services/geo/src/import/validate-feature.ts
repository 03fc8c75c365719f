import type { MultiPolygon } from '@stormhook/geometry';
import { parentLevel, type Area } from '../domain/area.js';
import type { BoundaryFileSpec } from './boundary-files.js';
import { parseAreaGeometry } from './parse-geometry.js';

export type FeatureOutcome = { ok: true; area: Area } | { ok: false; id?: number; reason: string };

export interface FeatureContext {
  readonly spec: BoundaryFileSpec;
  /** Ids accepted so far in this file, with the feature index that holds them. */
  readonly accepted: ReadonlyMap<number, number>;
  /** Whether an area of the parent level with this id exists (accepted in this import, or stored). */
  parentExists(id: number): boolean;
  /**
   * The parent-level area under a geometry, for a feature whose parent property is empty; undefined
   * when none lies under it or near enough.
   */
  parentByLocation?(geometry: MultiPolygon): number | undefined;
}

/** An integer id from a number or a string of digits (many GeoJSON producers write ids as strings). */
function integerOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  if (typeof value === 'string' && /^\d{1,15}$/.test(value.trim())) return Number(value.trim());
  return undefined;
}

/** Validates one feature against its file's mapping and returns the area, or why it is rejected. */
export function validateFeature(feature: unknown, ctx: FeatureContext): FeatureOutcome {
  const { spec } = ctx;
  if (typeof feature !== 'object' || feature === null || (feature as { type?: unknown }).type !== 'Feature') {
    return { ok: false, reason: 'not a GeoJSON Feature' };
  }
  const raw = (feature as { properties?: unknown }).properties;
  const props: Record<string, unknown> = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};

  const id = spec.fixedId ?? integerOf(spec.idProperty ? props[spec.idProperty] : undefined);
  if (id === undefined) {
    return { ok: false, reason: `property ${spec.idProperty} must be an integer id, got ${JSON.stringify(props[spec.idProperty ?? ''] ?? null)}` };
  }
  const reject = (reason: string): FeatureOutcome => ({ ok: false, id, reason });
  if (id < spec.idRange[0] || id > spec.idRange[1]) return reject(`id ${id} is outside ${spec.idRange[0]}..${spec.idRange[1]}`);

  const name = spec.nameProperties.map((p) => props[p]).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  if (name === undefined) return reject(`no name (properties ${spec.nameProperties.join(', ')} are empty)`);

  if (spec.countryProperty && props[spec.countryProperty] !== undefined && props[spec.countryProperty] !== spec.country) {
    return reject(`property ${spec.countryProperty} is ${JSON.stringify(props[spec.countryProperty])}, expected ${spec.country}`);
  }

  const geometry = parseAreaGeometry((feature as { geometry?: unknown }).geometry, spec.envelope);
  if (!geometry.ok) return reject(geometry.reason);

  let parentId: number | null = null;
  const upLevel = parentLevel(spec.level);
  if (spec.parentProperty && upLevel) {
    // A source that left the parent empty (the WOF sample has 4 such coastal features) gets the
    // parent under the feature; only a feature lying under no parent at all is rejected.
    const parent = integerOf(props[spec.parentProperty]) ?? ctx.parentByLocation?.(geometry.geometry);
    if (parent === undefined) {
      return reject(
        `no parent: property ${spec.parentProperty} is ${JSON.stringify(props[spec.parentProperty] ?? null)} and no ${upLevel} lies under the feature; a ${spec.level} must belong to a ${upLevel}`,
      );
    }
    if (!ctx.parentExists(parent)) return reject(`parent ${upLevel} ${parent} (property ${spec.parentProperty}) does not exist`);
    parentId = parent;
  }

  const first = ctx.accepted.get(id);
  if (first !== undefined) return reject(`duplicate id ${id} (already used by feature ${first})`);

  return {
    ok: true,
    area: {
      country: spec.country,
      level: spec.level,
      id,
      name: name.trim(),
      parentId,
      licensePlateCode: spec.plateCodeIsId ? id : null,
      geometry: geometry.geometry,
    },
  };
}
