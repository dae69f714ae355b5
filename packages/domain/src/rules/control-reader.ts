import type { FieldErrors } from '../errors';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Reads typed fields out of an untrusted JSON object, recording a named error for each wrong one
 * (`steps[1].controlValues.body: must be a string`) instead of stopping at the first.
 * Absent fields read as undefined and are left to the issues computation (MISSING_VALUE).
 */
export class ControlReader {
  private readonly seen = new Set<string>();

  constructor(
    readonly source: JsonObject,
    readonly path: string,
    readonly errors: FieldErrors,
  ) {}

  at(key: string): string {
    return `${this.path}.${key}`;
  }

  fail(key: string, message: string): undefined {
    this.errors[this.at(key)] = { messages: [message], value: this.source[key] };
    return undefined;
  }

  private take(key: string): unknown {
    this.seen.add(key);
    return this.source[key];
  }

  string(key: string): string | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    return typeof value === 'string' ? value : this.fail(key, 'must be a string');
  }

  nullableString(key: string): string | null | undefined {
    return this.source[key] === null ? (this.take(key), null) : this.string(key);
  }

  boolean(key: string): boolean | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    return typeof value === 'boolean' ? value : this.fail(key, 'must be true or false');
  }

  number(key: string, { min = 0, integer = false, exclusiveMin = true } = {}): number | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    if (typeof value !== 'number' || !Number.isFinite(value)) return this.fail(key, 'must be a number');
    if (integer && !Number.isInteger(value)) return this.fail(key, 'must be a whole number');
    if (exclusiveMin ? value <= min : value < min) return this.fail(key, `must be ${exclusiveMin ? 'greater than' : 'at least'} ${min}`);
    return value;
  }

  oneOf<T extends string>(key: string, values: readonly T[]): T | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    return (values as readonly unknown[]).includes(value) ? (value as T) : this.fail(key, `must be one of ${values.join(', ')}`);
  }

  json(key: string): JsonObject | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    return isObject(value) ? value : this.fail(key, 'must be an object');
  }

  /** A nested object read with its own reader; undefined when absent or not an object. */
  object(key: string): ControlReader | undefined {
    const value = this.json(key);
    return value && new ControlReader(value, this.at(key), this.errors);
  }

  array(key: string): unknown[] | undefined {
    const value = this.take(key);
    if (value === undefined) return undefined;
    return Array.isArray(value) ? value : this.fail(key, 'must be an array');
  }

  /** Call last: every key no reader method asked for is an error, so typos do not pass silently. */
  rejectUnknown(kind: string): void {
    for (const key of Object.keys(this.source)) {
      if (!this.seen.has(key)) this.fail(key, `is not a control of ${kind}`);
    }
  }
}

/** Drops undefined entries, so stored control values hold only what was given. */
export function compact(values: Record<string, unknown>): JsonObject {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined));
}

/** Enumerations and flags among the controls: never templates. */
export const NON_TEMPLATE_KEYS = new Set(['type', 'unit', 'method', 'editorType', 'target', 'layoutId', 'disableOutputSanitization']);

/** Every template (string leaf) of control values with its path (`primaryAction.label`, `headers[0].value`). */
export function templateLeaves(value: unknown, path = '', out: Array<[string, string]> = []): Array<[string, string]> {
  if (typeof value === 'string') out.push([path, value]);
  else if (Array.isArray(value)) value.forEach((v, i) => templateLeaves(v, `${path}[${i}]`, out));
  else if (isObject(value)) {
    for (const [key, v] of Object.entries(value)) {
      if (!NON_TEMPLATE_KEYS.has(key)) templateLeaves(v, path ? `${path}.${key}` : key, out);
    }
  }
  return out;
}
