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
 * Outbound HTTP for workflow steps and webhooks. Refuses private, loopback and link-local
 * destinations (checked on the resolved address, so DNS cannot smuggle them in) unless the
 * operator allowed them; rejects with a message a person can read.
 */
export interface HttpClient {
  request(request: HttpRequest): Promise<HttpResponse>;
}
