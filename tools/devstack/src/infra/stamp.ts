import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** A marker written after a fetch or build succeeded, so a second start skips it. */
export function stampMatches(file: string, inputs: string): boolean {
  return existsSync(file) && readFileSync(file, 'utf8') === digest(inputs);
}

export function writeStamp(file: string, inputs: string): void {
  writeFileSync(file, digest(inputs));
}

function digest(inputs: string): string {
  return createHash('sha256').update(inputs).digest('hex');
}
