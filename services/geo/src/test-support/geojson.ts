import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Ring } from '@stormhook/geometry';

export interface TestFeature {
  type: string;
  properties: Record<string, unknown> | null;
  geometry: { type: string; coordinates: unknown } | null;
}

export function feature(properties: Record<string, unknown>, ...rings: Ring[]): TestFeature {
  return { type: 'Feature', properties, geometry: { type: 'Polygon', coordinates: rings } };
}

export function collection(features: unknown[]): string {
  return JSON.stringify({ type: 'FeatureCollection', features });
}

/** A temporary directory holding the given files (name -> text); `remove` deletes it. */
export async function tempSource(files: Record<string, string>): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'geo-source-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
