import { z } from '@hono/zod-openapi';
import type { CursorQuery } from '@herald/domain';

/** `{tenant: "acme"}` or `{tenant: {id: "acme", data: {...}}}`; stored as sorted `type:id` context keys. */
export const ContextSchema = z
  .record(z.string(), z.union([z.string(), z.strictObject({ id: z.string().min(1), data: z.record(z.string(), z.unknown()).optional() })]))
  .openapi('Context');

/** Query booleans arrive as strings. */
export const queryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

/** A repeated query parameter (`?a=1&a=2`) or a single one. */
export const queryArray = <T extends z.ZodTypeAny>(item: T) =>
  z.preprocess((v) => (v === undefined ? undefined : Array.isArray(v) ? v : [v]), z.array(item)).optional();

/** The interface's cursor pagination parameters, shared by every cursor list. */
export function cursorQuerySchema<const O extends readonly [string, ...string[]]>(orderBy: O, defaultOrderBy: O[number], maxLimit = 100) {
  return z.object({
    after: z.string().optional(),
    before: z.string().optional(),
    limit: z.coerce.number().int().min(1).max(maxLimit).default(10),
    orderDirection: z.enum(['ASC', 'DESC']).default('DESC'),
    orderBy: z.enum(orderBy).default(defaultOrderBy),
    includeCursor: queryBoolean.default(false),
  });
}

export function toCursorQuery<O extends string>(q: {
  after?: string;
  before?: string;
  limit: number;
  orderDirection: 'ASC' | 'DESC';
  orderBy: O;
  includeCursor: boolean;
}): CursorQuery<O> {
  return { after: q.after, before: q.before, limit: q.limit, orderDirection: q.orderDirection, orderBy: q.orderBy, includeCursor: q.includeCursor };
}

export function cursorPageSchema<T extends z.ZodTypeAny>(item: T, name: string) {
  return z
    .object({
      data: z.array(item),
      next: z.string().nullable(),
      previous: z.string().nullable(),
      totalCount: z.number(),
      totalCountCapped: z.boolean(),
    })
    .openapi(name);
}

export const ErrorSchema = z
  .object({
    statusCode: z.number(),
    message: z.string(),
    error: z.string(),
    code: z.string().openapi({ description: 'Stable code to branch on: VALIDATION_FAILED, SUBSCRIBER_NOT_FOUND, MALFORMED_JSON...' }),
    timestamp: z.string(),
    path: z.string(),
    errors: z
      .record(z.string(), z.object({ messages: z.array(z.string()), value: z.unknown().optional() }))
      .optional()
      .openapi({ description: 'Field name (dotted path) -> messages, and the value given, cut to 200 characters' }),
    requestId: z.string().optional(),
  })
  .openapi('Error');

export const errorResponse = (description: string) => ({ content: { 'application/json': { schema: ErrorSchema } }, description });

/** The error responses every authenticated route can give. */
export const errorResponses = {
  400: errorResponse('Malformed request'),
  401: errorResponse('Missing or invalid API key or dashboard session'),
  403: errorResponse("Refused to a dashboard session: a viewer's change, or a change from another origin"),
  404: errorResponse('Resource not found'),
  405: errorResponse('Method not allowed on this path'),
  409: errorResponse('Conflict'),
  413: errorResponse('Body over 512 KB'),
  415: errorResponse('Body is not JSON'),
  422: errorResponse('Validation failed: bad fields, NUL characters, or JSON nested over 64 levels'),
};

/** A response with no body (sign-out, deletes of the dashboard's own resources). */
export const noContent = (description: string) => ({ description });

/** The error responses of routes that count attempts (sign-in, password change): 429 with Retry-After. */
export const throttledResponses = { ...errorResponses, 429: errorResponse('Too many attempts: retry after Retry-After seconds') };

/** `{ data: T }`, the success envelope. */
export function dataEnvelope<T extends z.ZodTypeAny>(schema: T) {
  return z.object({ data: schema });
}

export function jsonContent<T extends z.ZodTypeAny>(schema: T, description: string) {
  return { content: { 'application/json': { schema } }, description };
}

export function jsonBody<T extends z.ZodTypeAny>(schema: T, required = true) {
  return { body: { content: { 'application/json': { schema } }, required } };
}
