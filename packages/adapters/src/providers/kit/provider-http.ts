import type { HttpClient } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { httpFailure, networkFailure, redact } from './provider-failure';

export interface ProviderCall {
  method?: string;
  url: string;
  headers?: Record<string, string>;
  /** Sent as JSON (content-type set); or `body` as it is, with the caller's content-type. */
  json?: unknown;
  body?: string;
  /** Credential values that must never reach an error message or an execution detail. */
  secrets: unknown[];
  /** The reason a provider gives in an error body (its `message`, `errors[0].detail`...). */
  reason?(body: any): string | undefined;
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
  const headers = { ...(call.json !== undefined ? { 'content-type': 'application/json' } : {}), accept: 'application/json', ...call.headers };
  let response;
  try {
    response = await http.request({ method: call.method ?? 'POST', url: call.url, headers, body: call.json !== undefined ? JSON.stringify(call.json) : call.body, timeoutMs });
  } catch (error) {
    const message = (error as Error).message ?? String(error);
    if (REFUSED.test(message)) throw new ProviderError(redact(message, call.secrets) ?? 'refused', false);
    throw networkFailure(error, call.secrets);
  }
  const body = parse(response.body);
  if (response.status >= 300) {
    const reason = (typeof body === 'object' && body !== null && call.reason?.(body)) || `refused the message`;
    throw httpFailure(response.status, redact(reason, call.secrets) ?? '', response.body, call.secrets, response.headers['retry-after']);
  }
  return { status: response.status, headers: response.headers, body, raw: redact(response.body, call.secrets) };
}

/** HTTP Basic authorization header value. */
export function basicAuth(user: string, password: string): string {
  return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
}
