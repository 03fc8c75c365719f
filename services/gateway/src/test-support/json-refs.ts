import assert from 'node:assert/strict';

/** Every `$ref` in a JSON document (OpenAPI or AsyncAPI), so each can be checked to resolve. */
export function refsOf(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => refsOf(item, found));
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else refsOf(value, found);
    }
  }
  return found;
}

/**
 * Resolves a local `$ref` (`#/…`): a JSON Pointer in a URI fragment, so each part is percent-decoded,
 * then unescaped as RFC 6901 says (`~1` is `/`, then `~0` is `~`). Undefined when it points nowhere.
 */
export function resolveRef(doc: unknown, ref: string): unknown {
  assert.ok(ref.startsWith('#/'), ref);
  return ref
    .slice(2)
    .split('/')
    .map((part) => decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], doc);
}
