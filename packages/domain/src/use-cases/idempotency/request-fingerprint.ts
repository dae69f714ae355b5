import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth and no insignificant whitespace, so two encodings of the
 * same value give the same text. Array order is significant. Undefined members are dropped, as
 * JSON.stringify drops them.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    const members = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface RequestToFingerprint {
  method: string;
  /** Path with its query string. */
  path: string;
  /** The raw body text; empty when there is none. */
  body: string;
}

/**
 * sha256 (hex) of the method, path and canonical JSON body: the same request re-encoded (key order,
 * whitespace) has the same fingerprint. A body that is not JSON is hashed as it is.
 */
export function requestFingerprint({ method, path, body }: RequestToFingerprint): string {
  let canonicalBody = body;
  if (body.trim()) {
    try {
      canonicalBody = canonicalJson(JSON.parse(body));
    } catch {
      // Not JSON: the raw text is the body's identity.
    }
  }
  return createHash('sha256').update(`${method.toUpperCase()} ${path}\n`).update(canonicalBody).digest('hex');
}
