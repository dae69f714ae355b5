import type { FieldErrors } from '@herald/domain';
import type { Hook } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from './app-env';
import { errorBody } from './errors';
import { findUnstorable } from './unstorable-strings';

/** Fields whose values an error never shows back (passwords, tokens, secrets): bodies are echoed only in part. */
const SECRET_FIELD = /(password|token|secret)$/i;

export function fieldErrors(error: ZodError, input?: unknown): FieldErrors {
  // A Map: a field named `__proto__` (an unknown key a client sent) is a field like any other.
  const fields = new Map<string, FieldErrors[string]>();
  const at = (path: readonly PropertyKey[]) => {
    let value: unknown = input;
    for (const key of path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    return value;
  };
  const add = (path: readonly PropertyKey[], message: string) => {
    const name = path.length ? path.join('.') : 'body';
    const entry = fields.get(name) ?? { messages: [] };
    fields.set(name, entry);
    entry.messages.push(message);
    // The whole body is shown back only when it is not an object (a string where an object belongs).
    const value = path.length ? at(path) : input !== null && typeof input === 'object' ? undefined : input;
    if (entry.value === undefined && value !== undefined && !SECRET_FIELD.test(String(path[path.length - 1]))) entry.value = value;
  };
  for (const issue of error.issues) {
    // An unknown key is named itself, not as its object (which would show every other field back).
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add([...issue.path, key], 'is not a known field');
    else add(issue.path, issue.message);
  }
  return Object.fromEntries(fields);
}

/**
 * The one zod hook of every route and target (path, query, body): a failure is a 422 in the API's
 * error shape naming every bad field; valid input PostgreSQL cannot store (NUL, unpaired surrogates)
 * is refused the same way.
 */
export const defaultHook: Hook<unknown, AppEnv, string, unknown> = (result, c) => {
  if (result.success) {
    const found = findUnstorable(result.data);
    if (!found) return;
    const { field, message } = found;
    return c.json(errorBody(c, 422, `${field}: ${message}`, { errors: { [field]: { messages: [message] } }, code: 'VALIDATION_FAILED' }), 422);
  }
  const fields = fieldErrors(result.error, (result as { data?: unknown }).data);
  const [first] = Object.entries(fields);
  const message = first ? `${first[0]}: ${first[1].messages[0]}` : 'Invalid request';
  return c.json(errorBody(c, 422, message, { errors: fields, code: 'VALIDATION_FAILED' }), 422);
};
