/**
 * PostgreSQL text and jsonb cannot hold the NUL character (U+0000), so the API refuses it wherever a
 * string arrives (path ids, query filters, body strings, object keys) instead of failing in the
 * database or dropping it silently: one rule for every route.
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';

/** The dotted path of the first string or key holding NUL in `value`, or null. Depth is bounded by the caller. */
export function findNul(value: unknown, path: string[] = []): string | null {
  if (typeof value === 'string') return value.includes('\0') ? name(path) : null;
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findNul(value[i], [...path, String(i)]);
      if (found !== null) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0')) return name([...path, key.replaceAll('\0', '\\u0000')]);
    const found = findNul(item, [...path, key]);
    if (found !== null) return found;
  }
  return null;
}

function name(path: string[]): string {
  return path.length ? path.join('.') : 'body';
}
