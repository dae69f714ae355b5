import { token } from '../shared/token';

export const HttpClient = token<HttpClient>('HttpClient');

export interface HttpRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  /** Text, or bytes (a multipart form with files). */
  body?: string | Uint8Array;
  timeoutMs: number;
}

export interface HttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The outbound guard's refusal of a destination: not a URL, not http(s), or a private, loopback or
 * link-local address the operator did not allow. Final: calling again cannot succeed, unlike a
 * network failure or a timeout (plain Errors).
 */
export class OutboundRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusedError';
  }
}

/**
 * Outbound HTTP for workflow steps and webhooks. Refuses private, loopback and link-local
 * destinations (checked on the resolved address, so DNS cannot smuggle them in) unless the
 * operator allowed them, rejecting with an OutboundRefusedError a person can read; any other
 * failure to get an answer (connection, deadline) rejects with a plain Error.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}
