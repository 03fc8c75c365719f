/**
 * Collects what is wrong with a record, each problem naming the field by its path in the feed
 * message (`geometry.polygons[0].exterior.points[3].lat`), so a publisher reading a dead letter
 * knows exactly what to fix. Stops collecting after a few: one broken ring can otherwise produce
 * thousands of lines.
 */
export class Problems {
  private readonly items: string[] = [];
  private truncated = false;

  constructor(private readonly max = 5) {}

  add(path: string, message: string): void {
    if (this.items.length < this.max) this.items.push(`${path}: ${message}`);
    else this.truncated = true;
  }

  get count(): number {
    return this.items.length;
  }

  get empty(): boolean {
    return this.items.length === 0;
  }

  /** The problems as one dead-letter reason. */
  summary(): string {
    return this.items.join('; ') + (this.truncated ? '; (more problems not listed)' : '');
  }
}

export type Validated<T> = { ok: true; value: T } | { ok: false; reason: string };

export function rejected<T>(problems: Problems): Validated<T> {
  return { ok: false, reason: problems.summary() };
}

/** A finite number within [min, max]; says which bound was broken and by what value. */
export function checkRange(problems: Problems, path: string, value: number, min: number, max: number, unit = ''): boolean {
  const suffix = unit ? ` ${unit}` : '';
  if (!Number.isFinite(value)) {
    problems.add(path, `must be a finite number, got ${String(value)}`);
    return false;
  }
  if (value < min || value > max) {
    problems.add(path, `${value}${suffix} is outside ${min} to ${max}${suffix}`);
    return false;
  }
  return true;
}

const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/** Identifiers we put into event ids, Kafka headers and logs: short and of a safe alphabet. */
export function checkSourceId(problems: Problems, path: string, value: string): boolean {
  if (value === '') {
    problems.add(path, 'is required');
    return false;
  }
  if (!SOURCE_ID.test(value)) {
    problems.add(
      path,
      `"${value.slice(0, 40)}${value.length > 40 ? '...' : ''}" must be 1 to 128 characters of [A-Za-z0-9._:-] starting with a letter or digit`,
    );
    return false;
  }
  return true;
}

/** Text fields copied into events: bounded so one record cannot bloat every read model. */
export function checkText(problems: Problems, path: string, value: string, maxLength: number): boolean {
  if (value.length > maxLength) {
    problems.add(path, `is ${value.length} characters long, at most ${maxLength} allowed`);
    return false;
  }
  return true;
}

/** A compass direction in degrees, 0 to 360 inclusive (360 is read as 0). */
export function checkDirection(problems: Problems, path: string, value: number): boolean {
  if (!Number.isFinite(value) || value < 0 || value > 360) {
    problems.add(path, `${value} degrees is outside 0 to 360 degrees`);
    return false;
  }
  return true;
}

/** 360 and 0 are the same heading; publishing one form keeps content hashes stable. */
export function normaliseDirection(value: number): number {
  return value % 360;
}
