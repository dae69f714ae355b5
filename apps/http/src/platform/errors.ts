import type { ErrorCode, FieldErrors } from '@herald/domain';
import { DomainError } from '@herald/domain';
import type { Context } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { AppEnv } from './app-env';

/** The one table from domain error codes to HTTP statuses. */
const STATUS: Record<ErrorCode, ContentfulStatusCode> = {
  VALIDATION_FAILED: 422,
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  SUBSCRIBER_NOT_FOUND: 404,
  SUBSCRIBER_ALREADY_EXISTS: 409,
  WORKFLOW_NOT_FOUND: 404,
  WORKFLOW_ALREADY_EXISTS: 409,
  TOPIC_NOT_FOUND: 404,
  SUBSCRIPTION_NOT_FOUND: 404,
  INTEGRATION_NOT_FOUND: 404,
  INTEGRATION_ALREADY_EXISTS: 409,
  CHANNEL_CONNECTION_NOT_FOUND: 404,
  CHANNEL_ENDPOINT_NOT_FOUND: 404,
  CHANNEL_CONNECTION_ALREADY_EXISTS: 409,
  CHANNEL_ENDPOINT_ALREADY_EXISTS: 409,
  WEBHOOK_ENDPOINT_NOT_FOUND: 404,
  NOTIFICATION_NOT_FOUND: 404,
  NOTIFICATION_ACTION_MISSING: 422,
  ENVIRONMENT_NOT_FOUND: 404,
  CONFLICT: 409,
  LIMIT_EXCEEDED: 422,
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  IDEMPOTENCY_KEY_BODY_MISMATCH: 422,
  IDEMPOTENCY_KEY_TOO_LONG: 400,
  PAYLOAD_INVALID: 400,
  // The stored row, not the request, is at fault; the body names the subscriber and never the stored text.
  CREDENTIALS_UNREADABLE: 409,
};

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

/** Codes of failures the HTTP layer detects itself, before any use case runs. */
export type HttpErrorCode = 'MALFORMED_JSON' | 'PAYLOAD_TOO_LARGE' | 'UNSUPPORTED_MEDIA_TYPE' | 'ROUTE_NOT_FOUND' | 'METHOD_NOT_ALLOWED' | 'INTERNAL_ERROR';

const HTTP_CODE: Record<number, HttpErrorCode> = {
  404: 'ROUTE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

export interface ErrorBody {
  statusCode: number;
  message: string;
  error: string;
  code: string;
  timestamp: string;
  path: string;
  errors?: FieldErrors;
  requestId?: string;
}

/** The one error shape; `extra.code` defaults to the HTTP layer's code for the status. */
export function errorBody(c: Context, statusCode: number, message: string, extra: Partial<ErrorBody> = {}): ErrorBody {
  const { errors, ...rest } = extra;
  return {
    statusCode,
    message: bounded(message),
    error: REASON[statusCode] ?? 'Error',
    code: HTTP_CODE[statusCode] ?? (statusCode >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST'),
    timestamp: new Date().toISOString(),
    path: bounded(c.req.path),
    ...rest,
    ...(errors && { errors: boundedFields(errors) }),
  };
}

const MAX_ECHO = 200;

/** Error bodies never echo unbounded input: a long string is cut, a large value shown as cut JSON text. */
function bounded(text: string): string {
  return text.length > MAX_ECHO ? `${text.slice(0, MAX_ECHO)}… (${text.length} characters)` : text;
}

function boundedFields(errors: FieldErrors): FieldErrors {
  // fromEntries defines own keys: a field named `__proto__` stays a field.
  return Object.fromEntries(
    Object.entries(errors)
      .slice(0, 50)
      .map(([name, { messages, value }]) => [bounded(name), { messages: messages.slice(0, 10).map(bounded), ...(value !== undefined && { value: boundedValue(value) }) }]),
  );
}

/** A value safe to echo in an error body: as given when small, else cut JSON text. */
export function boundedValue(value: unknown): unknown {
  if (typeof value === 'string') return bounded(value);
  if (value === null || typeof value !== 'object') return value;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    return '[unserializable]';
  }
  return text.length > MAX_ECHO ? bounded(text) : value;
}

export function statusOf(code: ErrorCode): ContentfulStatusCode {
  return STATUS[code];
}

/** app.onError: every failure leaves in the one error shape; internals never do. */
export function handleError(error: Error, c: Context<AppEnv>): Response {
  if (error instanceof DomainError) {
    const status = STATUS[error.code];
    return c.json(errorBody(c, status, error.message, { code: error.code, ...(error.fields && { errors: error.fields }) }), status);
  }
  if (error instanceof HTTPException) {
    const status = error.status as ContentfulStatusCode;
    const malformed = status === 400 && /JSON/i.test(error.message);
    const message = malformed ? 'Malformed JSON in request body' : error.message || REASON[status];
    const res = c.json(errorBody(c, status, message, malformed ? { code: 'MALFORMED_JSON', errors: { body: { messages: ['is not valid JSON'] } } } : {}), status);
    error.res?.headers.forEach((value, key) => {
      if (key.toLowerCase() !== 'content-type' && key.toLowerCase() !== 'content-length') res.headers.set(key, value);
    });
    return res;
  }
  const requestId = c.get('requestId');
  c.get('logger')?.error({ err: error, requestId }, 'unhandled error');
  return c.json(errorBody(c, 500, `Internal server error (request id ${requestId})`, { requestId }), 500);
}
