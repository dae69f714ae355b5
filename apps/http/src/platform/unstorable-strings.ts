/**
 * PostgreSQL text and jsonb cannot hold the NUL character (U+0000), and jsonb refuses an unpaired
 * UTF-16 surrogate (`\ud800` alone), which is not Unicode text at all. The API refuses both wherever
 * a string arrives (path ids, query filters, body strings, object keys) instead of failing in the
 * database or altering the text silently: one rule for every route.
 */
export const NUL_MESSAGE = 'must not contain the NUL character (\\u0000)';
export const SURROGATE_MESSAGE = 'must be valid Unicode: an unpaired surrogate (such as \\ud800) cannot be stored';

const UNPAIRED = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export interface UnstorableString {
  /** Dotted path of the field, `body` for the whole body. */
  field: string;
  message: string;
}

function problem(text: string): string | null {
  if (text.includes('\0')) return NUL_MESSAGE;
  return UNPAIRED.test(text) ? SURROGATE_MESSAGE : null;
}

/** The first string or key in `value` that PostgreSQL cannot store, or null. Depth is bounded by the caller. */
export function findUnstorable(value: unknown, path: string[] = []): UnstorableString | null {
  if (typeof value === 'string') {
    const message = problem(value);
    return message ? { field: name(path), message } : null;
  }
  if (value === null || typeof value !== 'object') return null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findUnstorable(value[i], [...path, String(i)]);
      if (found) return found;
    }
    return null;
  }
  for (const [key, item] of Object.entries(value)) {
    const message = problem(key);
    if (message) return { field: name([...path, JSON.stringify(key).slice(1, -1)]), message };
    const found = findUnstorable(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

function name(path: string[]): string {
  return path.length ? path.join('.') : 'body';
}
