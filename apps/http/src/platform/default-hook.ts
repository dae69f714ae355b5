import type { FieldErrors } from '@herald/domain';
import type { Hook } from '@hono/zod-openapi';
import type { ZodError } from 'zod';
import type { AppEnv } from './app-env';
import { errorBody } from './errors';
import { UNKNOWN_FIELD } from './strict-request';
import { findUnstorable } from './unstorable-strings';

type ZodIssue = ZodError['issues'][number];

/** Fields whose values an error never shows back (passwords, tokens, secrets): bodies are echoed only in part. */
const SECRET_FIELD = /(password|token|secret)$/i;

/** Each failed field by its dotted path; an unknown key is a field of its own, named and shown. */
export function fieldErrors(error: ZodError, input?: unknown): FieldErrors {
  // A Map: a client's key may be `constructor` or `__proto__`, which a plain object already has.
  const fields = new Map<string, FieldErrors[string]>();
  const add = (path: PropertyKey[], message: string) => {
    const name = path.length ? path.map(String).join('.') : 'body';
    const entry = fields.get(name) ?? { messages: [] };
    fields.set(name, entry);
    entry.messages.push(message);
    if (entry.value !== undefined || (path.length && SECRET_FIELD.test(String(path[path.length - 1])))) return;
    // The whole body is shown back only when it is not an object (a string where an object belongs).
    let value: unknown = path.length || input === null || typeof input !== 'object' ? input : undefined;
    for (const key of path) value = value && typeof value === 'object' && Object.hasOwn(value, key) ? (value as Record<PropertyKey, unknown>)[key] : undefined;
    if (value !== undefined) entry.value = value;
  };
  const report = (issues: readonly ZodIssue[], prefix: PropertyKey[]) => {
    for (const issue of issues) {
      const path = [...prefix, ...issue.path];
      if (issue.code === 'unrecognized_keys') for (const key of issue.keys) add([...path, key], UNKNOWN_FIELD);
      else if (issue.code === 'invalid_union' && issue.message === 'Invalid input' && issue.errors.length) report(closestBranch(issue.errors), path);
      else add(path, issue.message);
    }
  };
  report(error.issues, []);
  return Object.fromEntries(fields);
}

/**
 * The union member the input came closest to, so a recipient object with a misspelt key is told
 * about that key rather than "Invalid input": members whose very type differs come last, then fewer issues win.
 */
function closestBranch(branches: ZodIssue[][]): ZodIssue[] {
  const rank = (issues: ZodIssue[]) => (issues.some((i) => i.path.length === 0 && i.code === 'invalid_type') ? 1000 : 0) + issues.length;
  return branches.reduce((best, branch) => (rank(branch) < rank(best) ? branch : best));
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
