import { validation } from '../errors.js';
import { fail, ok, type Result } from '../result.js';

/**
 * Parses a list filter of interface.md 4.16, written inside a string in bracket notation:
 * `"[ADMIN, API_USER]"`. Also accepted, because clients produce them: a real JSON array, a bare value
 * or comma list without brackets (`"ADMIN"`), items in single or double quotes, any case. Empty
 * (`"[]"`, `""`, absent) means no filter. Duplicates collapse. Errors name `field` and the bad item.
 */
export function parseBracketList<T extends string>(field: string, raw: unknown, allowed: readonly T[]): Result<T[]> {
  if (raw === undefined || raw === null) return ok([]);
  let items: unknown[];
  if (Array.isArray(raw)) {
    items = raw;
  } else if (typeof raw === 'string') {
    const trimmed = raw.trim();
    const opens = trimmed.startsWith('[');
    const closes = trimmed.endsWith(']');
    if (opens !== closes) return fail(validation(field, `unbalanced brackets in "${raw}"; write a list like [${allowed.slice(0, 2).join(', ')}]`));
    const inner = opens ? trimmed.slice(1, -1).trim() : trimmed;
    if (inner === '') return ok([]);
    items = inner.split(',');
  } else {
    return fail(validation(field, `must be a list such as "[${allowed.slice(0, 2).join(', ')}]"`));
  }

  const out: T[] = [];
  for (const item of items) {
    if (typeof item !== 'string') return fail(validation(field, 'every item must be a string'));
    const value = unquote(item.trim()).toUpperCase();
    if (value === '') return fail(validation(field, 'contains an empty item'));
    const match = allowed.find((candidate) => candidate === value);
    if (match === undefined) return fail(validation(field, `unknown value "${value}"; allowed: ${allowed.join(', ')}`));
    if (!out.includes(match)) out.push(match);
  }
  return ok(out);
}

function unquote(item: string): string {
  const first = item[0];
  if ((first === '"' || first === "'") && item.length >= 2 && item.endsWith(first)) return item.slice(1, -1).trim();
  return item;
}
