import type { HttpClient } from '@herald/domain';
import { OutboundRefusedError, ProviderError } from '@herald/domain';
import { httpFailure, networkFailure, redact } from './provider-failure';

export interface ProviderCall {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON (content-type set); as multipart/form-data; or `body` as it is, with the caller's content-type. */
  json?: unknown;
  form?: FormData;
  body?: string;
  /** Credential values that must never reach an error message or an execution detail. */
  secrets: unknown[];
  /** The reason a provider gives in an error body (its `message`, `errors[0].detail`...). */
  reason?(body: any): string | undefined;
  /** What the error says when the answer gives no reason (a plain-text or empty body). */
  refusal?: string;
  /** A Retry-After the provider puts in its error body instead of the header (Telegram's `parameters.retry_after`), in seconds. */
  retryAfter?(body: any): number | undefined;
  /** Whether another attempt may succeed, for providers whose status codes do not say (Mandrill answers 500 for a bad key). */
  retryable?(status: number, body: any): boolean | undefined;
}

export interface ProviderAnswer {
  status: number;
  headers: Record<string, string>;
  /** The answer parsed as JSON, or its text when it is not JSON. */
  body: any;
  /** The text, secrets redacted and cut to the size of an execution detail. */
  raw: string | undefined;
}

// The guarded client's refusals (a private address, a bad URL): no retry will change them.
const REFUSED = /refused to call|not a valid URL|only http/;

/** The request body and its content type; a form is encoded by the platform's own multipart writer. */
async function encode(call: ProviderCall): Promise<{ contentType?: string; body?: string | Uint8Array }> {
  if (call.json !== undefined) return { contentType: 'application/json', body: JSON.stringify(call.json) };
  if (!call.form) return { body: call.body };
  const request = new Request('http://form.invalid/', { method: 'POST', body: call.form });
  return { contentType: request.headers.get('content-type') ?? undefined, body: new Uint8Array(await request.arrayBuffer()) };
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One call to a provider's documented HTTP API through Herald's guarded client: an answer below 300
 * is returned; anything else is a ProviderError, classified the one way every provider shares:
 * refusals of the outbound guard permanent, no answer (timeout, reset) transient, 408/429/5xx
 * transient with their Retry-After, other 4xx permanent. Secrets are redacted everywhere.
 */
export async function callProvider(http: HttpClient, timeoutMs: number, call: ProviderCall): Promise<ProviderAnswer> {
  const encoded = await encode(call);
  const headers = { ...(encoded.contentType ? { 'content-type': encoded.contentType } : {}), accept: 'application/json', ...call.headers };
  let response;
  try {
    response = await http.request({ method: call.method ?? 'POST', url: call.url, headers, body: encoded.body, timeoutMs });
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (error instanceof OutboundRefusedError || REFUSED.test(message)) throw new ProviderError(redact(message, call.secrets) ?? 'refused', false);
    throw networkFailure(error, call.secrets);
  }
  const body = parse(response.body);
  if (response.status >= 300) {
    const reason = (typeof body === 'object' && body !== null && call.reason?.(body)) || call.refusal || `refused the message`;
    const retryAfter = response.headers['retry-after'] ?? (typeof body === 'object' && body !== null ? call.retryAfter?.(body) : undefined);
    const failure = httpFailure(response.status, redact(reason, call.secrets) ?? '', response.body, call.secrets, retryAfter);
    const retryable = call.retryable?.(response.status, body);
    throw retryable === undefined ? failure : new ProviderError(failure.message, retryable, failure.raw, failure.extra);
  }
  return { status: response.status, headers: response.headers, body, raw: redact(response.body, call.secrets) };
}

/** HTTP Basic authorization header value. */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
