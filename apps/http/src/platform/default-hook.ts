import type { FieldErrors } from '@herald/domain';
import type { Hook } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from './app-env';
import { errorBody } from './errors';
import { findUnstorable } from './unstorable-strings';

export function fieldErrors(error: ZodError, input?: unknown): FieldErrors {
  const fields: FieldErrors = {};
  for (const issue of error.issues) {
    const name = issue.path.length ? issue.path.join('.') : 'body';
    const entry = (fields[name] ??= { messages: [] });
    entry.messages.push(issue.message);
    if (entry.value === undefined && input && typeof input === 'object') {
      let value: unknown = input;
      for (const key of issue.path) value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key as PropertyKey] : undefined;
      if (value !== undefined) entry.value = value;
    }
  }
  return fields;
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
