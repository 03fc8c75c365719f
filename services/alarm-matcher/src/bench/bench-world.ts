import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findRepoRoot } from '@stormhook/config';
import type { MultiPolygon, Position } from '@stormhook/geometry';
import { seeded, square } from '@stormhook/geometry/testing';
import type { GeometryRegistration, LightningFilter, PointRegistration, RealtimeRegistration } from '../domain/registration.js';
import type { Grid } from '../geometry/grid.js';
import { PreparedCircle } from '../geometry/prepared-circle.js';
import { PreparedPolygon } from '../geometry/prepared-polygon.js';
import type { WatchedArea } from '../matching/registration-index.js';
import type { Strike } from '../domain/weather-events.js';

interface Feature {
  geometry: { type: 'Polygon' | 'MultiPolygon'; coordinates: number[][][] | number[][][][] };
}

export interface BenchArea {
  key: string;
  prepared: PreparedPolygon;
}

/** The districts and provinces of the shared boundary files, or a synthetic grid of squares without them. */
export function loadAreas(grid: Grid): { districts: BenchArea[]; provinces: BenchArea[]; source: string } {
  const dir = process.env['STORMHOOK_GEO_SOURCE'] ?? sharedGeoDir();
  const read = (file: string, prefix: string): BenchArea[] => {
    const collection = JSON.parse(readFileSync(join(dir!, file), 'utf8')) as { features: Feature[] };
    return collection.features.map((feature, i) => {
      const polygons = (feature.geometry.type === 'Polygon' ? [feature.geometry.coordinates] : feature.geometry.coordinates) as number[][][][];
      const multi: MultiPolygon = polygons.map((rings) => ({
        exterior: rings[0]!.map(([x, y]) => [x!, y!] as const),
        holes: rings.slice(1).map((ring) => ring.map(([x, y]) => [x!, y!] as const)),
      }));
      return { key: `${prefix}:${i}`, prepared: new PreparedPolygon(multi, grid) };
    });
  };
  if (dir && existsSync(join(dir, 'tur_adm2_districts.geojson'))) {
    return {
      districts: read('tur_adm2_districts.geojson', 'DISTRICT'),
      provinces: read('tur_adm1_provinces.geojson', 'CITY'),
      source: 'shared boundary files',
    };
  }
  // About 1,000 "districts" of 0.4° and 80 "provinces" of 2° over Turkey's box.
  const districts: BenchArea[] = [];
  for (let x = 26; x < 44.6; x += 0.45)
    for (let y = 36; y < 42; y += 0.45) districts.push({ key: `DISTRICT:${x},${y}`, prepared: new PreparedPolygon(square(x, y, 0.4), grid) });
  const provinces: BenchArea[] = [];
  for (let x = 26; x < 44; x += 2)
    for (let y = 36; y < 42; y += 2) provinces.push({ key: `CITY:${x},${y}`, prepared: new PreparedPolygon(square(x, y, 2), grid) });
  return { districts, provinces, source: 'synthetic squares (shared boundary files not found)' };
}

function sharedGeoDir(): string | undefined {
  const root = findRepoRoot(dirname(fileURLToPath(import.meta.url)));
  return root === undefined ? undefined : join(root, '..', 'shared', 'data', 'geo');
}

/**
 * A random point on land, uniform by area: uniform in the box of all areas, kept when some area
 * holds it (sampling district by district instead would crowd everything into the small urban
 * districts).
 */
export function pointIn(areas: readonly BenchArea[], random: () => number): Position {
  let minLng = Infinity;
  let minLat = Infinity;
  let maxLng = -Infinity;
  let maxLat = -Infinity;
  for (const { prepared } of areas) {
    minLng = Math.min(minLng, prepared.bbox.minLng);
    minLat = Math.min(minLat, prepared.bbox.minLat);
    maxLng = Math.max(maxLng, prepared.bbox.maxLng);
    maxLat = Math.max(maxLat, prepared.bbox.maxLat);
  }
  for (;;) {
    const x = minLng + random() * (maxLng - minLng);
    const y = minLat + random() * (maxLat - minLat);
    if (areas.some((area) => area.prepared.contains(x, y))) return [x, y];
  }
}

function lightningFilter(random: () => number): LightningFilter {
  const pick = random();
  if (pick < 0.4) return {};
  if (pick < 0.7) return { type: 'FLASH_CLOUD_TO_GROUND', peakCurrentA: -(5_000 + Math.round(random() * 30_000)) };
  if (pick < 0.9) return { type: 'FLASH_IN_CLOUD', inCloudHeightM: 3_000 + Math.round(random() * 7_000) };
  return { peakCurrentA: 20_000 };
}

/**
 * `count` registrations spread evenly over Turkey's land, every one with a lightning filter (the
 * worst case for lightning matching): 70 % point alarms with a radius of 1 to 10 km (the incumbent's
 * example is 10 km) around a random point, 30 % geometry alarms on a random district (two in three)
 * or province.
 */
export function benchRegistrations(
  count: number,
  districts: readonly BenchArea[],
  provinces: readonly BenchArea[],
  seed: number,
): Array<{ registration: RealtimeRegistration; area: WatchedArea }> {
  const random = seeded(seed);
  const out: Array<{ registration: RealtimeRegistration; area: WatchedArea }> = [];
  for (let i = 0; i < count; i++) {
    const base = {
      registrationId: `bench-${i}`,
      accountId: `account-${i % 997}`,
      recipientId: `recipient-${i}`,
      createdAtMs: 0,
      updatedAtMs: 0,
      version: 1,
      warnings: [],
    };
    const filter = { lightning: lightningFilter(random) };
    if (random() < 0.7) {
      const [lng, lat] = pointIn(provinces, random);
      const radiusM = 1_000 + Math.round(random() * 9_000);
      const registration: PointRegistration = { ...base, kind: 'POINT', circle: { point: { lng, lat }, radiusM }, filter };
      out.push({ registration, area: { key: `circle:${i}`, shape: new PreparedCircle([lng, lat], radiusM) } });
    } else {
      const area = random() < 2 / 3 ? districts[Math.floor(random() * districts.length)]! : provinces[Math.floor(random() * provinces.length)]!;
      const registration: GeometryRegistration = { ...base, kind: 'GEOMETRY', area: { cityId: 1, districtId: i }, filter };
      out.push({ registration, area: { key: area.key, shape: area.prepared } });
    }
  }
  return out;
}

/** Strikes on land, a third in-cloud, peak currents of either polarity up to 60 kA. */
export function benchStrikes(count: number, provinces: readonly BenchArea[], seed: number): Strike[] {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const [lng, lat] = pointIn(provinces, random);
    const inCloud = random() < 0.33;
    return {
      eventId: `ltg_bench_${i}`,
      sourceEventId: `bench-${i}`,
      revision: 1,
      timeMs: 0,
      type: inCloud ? 'FLASH_IN_CLOUD' : 'FLASH_CLOUD_TO_GROUND',
      lng,
      lat,
      peakCurrentA: (random() < 0.9 ? -1 : 1) * (2_000 + random() * 58_000),
      ...(inCloud ? { inCloudHeightM: 1_000 + random() * 12_000 } : {}),
      multiplicity: 1,
    } satisfies Strike;
  });
}
