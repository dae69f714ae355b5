import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { ProviderError } from '@herald/domain';
import { isPrivateAddress } from '../../http/guarded-http-client';

const RAW_LIMIT = 2_000;
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ESOCKETTIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNECTION', 'ESOCKET', 'ETIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_SOCKET']);

/** The text with every secret (credential values, tokens) replaced, cut to a size fit for an execution detail. */
export function redact(text: unknown, secrets: unknown[]): string | undefined {
  if (text === undefined || text === null) return undefined;
  let out = typeof text === 'string' ? text : JSON.stringify(text);
  for (const secret of secrets) {
    if (typeof secret === 'string' && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  return out.length > RAW_LIMIT ? `${out.slice(0, RAW_LIMIT)}…` : out;
}

/** Retry-After in milliseconds: delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterMs(value: unknown, now = Date.now()): number | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  const text = String(value).trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** 408, 429 and 5xx are worth another attempt; other 4xx (bad credentials, bad recipient) are not. */
export function retryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** A provider's HTTP error answer as a ProviderError. */
export function httpFailure(status: number, message: string, raw: unknown, secrets: unknown[], retryAfter?: unknown): ProviderError {
  const hint = status === 401 || status === 403 ? ' (check the integration credentials)' : '';
  return new ProviderError(`answered ${status}: ${message}${hint}`, retryableStatus(status), redact(raw, secrets), {
    code: String(status),
    retryAfterMs: retryAfterMs(retryAfter),
  });
}

/** A network-level failure (no answer): always transient. */
export function isNetworkError(error: unknown): boolean {
  const code = (error as { code?: string })?.code ?? (error as { cause?: { code?: string } })?.cause?.code;
  return typeof code === 'string' && NETWORK_CODES.has(code);
}

export function networkFailure(error: unknown, secrets: unknown[]): ProviderError {
  const e = error as { code?: string; message?: string; cause?: { code?: string } };
  const code = e.code ?? e.cause?.code;
  return new ProviderError(`could not reach the provider: ${redact(e.message ?? String(error), secrets)}`, true, undefined, { code });
}

/**
 * Resolves a host a tenant configured (an SMTP server) and refuses private, loopback and link-local
 * addresses unless the operator allows them; returns the address to connect to, so DNS cannot
 * change it between the check and the connection.
 */
export async function guardedAddress(host: string, allowPrivateNetworks: boolean): Promise<string> {
  const address = isIP(host) ? host : (await lookup(host)).address;
  if (!allowPrivateNetworks && isPrivateAddress(address)) {
    throw new ProviderError(`refused to connect to ${host} (${address}): private, loopback and link-local addresses are not allowed (HERALD_ALLOW_PRIVATE_NETWORKS)`, false);
  }
  return address;
}

/** Operator-set API base URLs by provider id (HERALD_PROVIDER_ENDPOINTS): for sandboxes, proxies and tests. */
export type ProviderEndpoints = Readonly<Record<string, string>>;

/** A module loaded on first use, once (SDKs that take long to import are not loaded at start). */
export function lazy<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => {
    loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    });
    return loaded;
  };
}
