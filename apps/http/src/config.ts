import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { DEFAULT_RETENTION_DAYS, DEFAULT_RETRY_POLICY, DEFAULT_SESSION_POLICY, DEFAULT_WEBHOOK_DISPATCH, parseRetentionDays, parseRetryPolicy, type RetryPolicy, type SessionPolicy, type WebhookDispatchSettings } from '@herald/domain';

/** Whose X-Forwarded-* headers to believe: nobody's, any peer's, or these proxies' addresses only. */
export type TrustProxy = false | true | string[];

/** Every setting Herald reads, with its default; docs/configuration.md lists each (test/docs.test.ts checks). */
export interface Config {
  port: number;
  host: string;
  databaseUrl?: string;
  dataDir: string;
  apiKey?: string;
  serviceName: string;
  logLevel: string;
  /** Let http_request steps and webhooks call private, loopback and link-local addresses. */
  allowPrivateNetworks: boolean;
  /** base64 32-byte key for credentials at rest; generated into the data directory when unset. */
  encryptionKey?: string;
  /** Keys before a rotation (comma-separated base64), kept for reading until `pnpm herald encryption rotate` has run. */
  encryptionKeysPrevious?: string;
  /** Run delivery workers in this process (off: an API-only process). */
  runWorkers: boolean;
  /** Serve the Inbox demo page at /inbox/demo (development; off when NODE_ENV=production). */
  inboxDemo: boolean;
  /** Provider retry policy of environments that set none (HERALD_RETRY_POLICY, JSON, partial). */
  retryPolicy: RetryPolicy;
  /** Days delivery history is kept in environments that set none (HERALD_RETENTION_DAYS). */
  retentionDays: number;
  /** Provider API base URLs by provider id (HERALD_PROVIDER_ENDPOINTS, JSON): sandboxes, proxies, tests. */
  providerEndpoints: Record<string, string>;
  /** HERALD_SNS_TRUSTED_ORIGIN: the one origin SNS signing certificates and SubscribeURLs may come from instead of AWS (tests' loopback SNS). */
  snsTrustedOrigin?: string;
  /** LOG_FORMAT: JSON lines, or 'pretty' for a person at a terminal. */
  logFormat: 'json' | 'pretty';
  /** HERALD_METRICS: Prometheus metrics off (default), at /metrics on the API port, or on a port of their own. */
  metrics: { enabled: false } | { enabled: true; port?: number };
  /** The readiness check fails while the oldest due step has waited longer than this. */
  readyMaxLagSeconds: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: traces are exported there (OTLP/HTTP protobuf); unset, tracing is off. */
  otlpEndpoint?: string;
  /** Outbound webhooks: the retry schedule (HERALD_WEBHOOK_RETRY_SCHEDULE_MS), attempt timeout, disable threshold. */
  webhooks: WebhookDispatchSettings;
  /** Dashboard sessions' lifetimes (HERALD_SESSION_IDLE_SECONDS, HERALD_SESSION_MAX_SECONDS). */
  session: SessionPolicy;
  /** HERALD_TRUST_PROXY: X-Forwarded-Proto/-Host/-For are read only from a trusted proxy. */
  trustProxy: TrustProxy;
  /** HERALD_PUBLIC_URL's origin: the origin browsers see, when a proxy changes the Host header. */
  publicOrigin?: string;
}

function trustProxy(value: string | undefined): TrustProxy {
  const v = value?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(v)) return false;
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  const addresses = v.split(',').map((a) => a.trim()).filter(Boolean);
  if (!addresses.every((a) => isIP(a))) throw new Error(`HERALD_TRUST_PROXY must be true, false or a comma-separated list of proxy IP addresses, got '${value}'`);
  return addresses;
}

function publicOrigin(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    if (url.protocol === 'http:' || url.protocol === 'https:') return url.origin;
  } catch {
    // reported below
  }
  throw new Error(`HERALD_PUBLIC_URL must be an http(s) URL such as https://herald.example.com, got '${value}'`);
}

function metricsSetting(value: string | undefined): Config['metrics'] {
  const v = value?.trim().toLowerCase() ?? '';
  if (['', '0', 'false', 'no', 'off'].includes(v)) return { enabled: false };
  if (['1', 'true', 'yes', 'on'].includes(v)) return { enabled: true };
  if (/^\d+$/.test(v) && Number(v) <= 65535) return { enabled: true, port: Number(v) };
  throw new Error(`HERALD_METRICS must be true, false or a port number, got '${value}'`);
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
}

function retryPolicy(value: string | undefined): RetryPolicy {
  if (!value) return DEFAULT_RETRY_POLICY;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new Error(`HERALD_RETRY_POLICY must be JSON, got '${value}'`);
  }
  const result = parseRetryPolicy(parsed);
  if ('errors' in result) throw new Error(`HERALD_RETRY_POLICY: ${Object.entries(result.errors).map(([f, e]) => `${f} ${e.messages[0]}`).join('; ')}`);
  return result.policy;
}

function retentionDays(value: string | undefined): number {
  if (value === undefined || value === '') return DEFAULT_RETENTION_DAYS;
  const parsed = parseRetentionDays(value, 'HERALD_RETENTION_DAYS');
  if ('errors' in parsed) throw new Error(`HERALD_RETENTION_DAYS ${parsed.errors.HERALD_RETENTION_DAYS.messages[0]}, got '${value}'`);
  return parsed.days;
}

function providerEndpoints(value: string | undefined): Record<string, string> {
  if (!value) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    parsed = null;
  }
  // SMTP providers (outlook365) take an smtp:// host instead of an API base URL.
  const valid = (url: unknown) => typeof url === 'string' && /^(https?|smtps?):\/\/[^/]/.test(url);
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed) || !Object.values(parsed).every(valid)) {
    throw new Error(`HERALD_PROVIDER_ENDPOINTS must be a JSON object of provider id to http(s) base URL (smtp:// for SMTP providers), got '${value}'`);
  }
  return Object.fromEntries(Object.entries(parsed).map(([id, url]) => [id, (url as string).replace(/\/+$/, '')]));
}

/**
 * An SNS stand-in trusted instead of `sns.<region>.amazonaws.com`: whoever serves certificates there
 * can sign SES receipts, so it is for tests and never taken with NODE_ENV=production.
 */
function snsTrustedOrigin(value: string | undefined, nodeEnv: string | undefined): string | undefined {
  if (!value) return undefined;
  if (nodeEnv === 'production') throw new Error('HERALD_SNS_TRUSTED_ORIGIN is for tests against a stand-in SNS; it is refused with NODE_ENV=production');
  try {
    const url = new URL(value);
    if ((url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password) return url.origin;
  } catch {
    // reported below
  }
  throw new Error(`HERALD_SNS_TRUSTED_ORIGIN must be an http(s) origin such as http://127.0.0.1:4566, got '${value}'`);
}

/** Comma-separated delays in milliseconds before each attempt, the first usually 0. */
function webhookSchedule(value: string | undefined): readonly number[] {
  if (value === undefined || value === '') return DEFAULT_WEBHOOK_DISPATCH.scheduleMs;
  const delays = value.split(',').map((d) => Number(d.trim()));
  if (!delays.length || delays.some((d) => !Number.isInteger(d) || d < 0)) {
    throw new Error(`HERALD_WEBHOOK_RETRY_SCHEDULE_MS must be comma-separated whole milliseconds, got '${value}'`);
  }
  return delays;
}

function positiveNumber(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name} must be a positive number, got '${value}'`);
  return n;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? 3000);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got '${env.PORT}'`);
  const serviceName = env.SERVICE_NAME?.trim() || 'herald';
  if (!/^[a-z][a-z0-9-]*$/.test(serviceName)) throw new Error(`SERVICE_NAME must be lower-case letters, digits and dashes, got '${serviceName}'`);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir: resolve(env.HERALD_DATA_DIR || '.data'),
    apiKey: env.HERALD_API_KEY || undefined,
    serviceName,
    logLevel: env.LOG_LEVEL ?? 'info',
    allowPrivateNetworks: flag(env.HERALD_ALLOW_PRIVATE_NETWORKS, false),
    encryptionKey: env.HERALD_ENCRYPTION_KEY || undefined,
    encryptionKeysPrevious: env.HERALD_ENCRYPTION_KEYS_PREVIOUS || undefined,
    runWorkers: flag(env.HERALD_WORKERS, true),
    retryPolicy: retryPolicy(env.HERALD_RETRY_POLICY),
    retentionDays: retentionDays(env.HERALD_RETENTION_DAYS),
    providerEndpoints: providerEndpoints(env.HERALD_PROVIDER_ENDPOINTS),
    snsTrustedOrigin: snsTrustedOrigin(env.HERALD_SNS_TRUSTED_ORIGIN, env.NODE_ENV),
    logFormat: env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json',
    metrics: metricsSetting(env.HERALD_METRICS),
    readyMaxLagSeconds: positiveNumber(env.HERALD_READY_MAX_LAG_SECONDS, 60, 'HERALD_READY_MAX_LAG_SECONDS'),
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    inboxDemo: flag(env.HERALD_INBOX_DEMO, env.NODE_ENV !== 'production'),
    webhooks: {
      ...DEFAULT_WEBHOOK_DISPATCH,
      scheduleMs: webhookSchedule(env.HERALD_WEBHOOK_RETRY_SCHEDULE_MS),
      timeoutMs: positiveNumber(env.HERALD_WEBHOOK_TIMEOUT_MS, DEFAULT_WEBHOOK_DISPATCH.timeoutMs, 'HERALD_WEBHOOK_TIMEOUT_MS'),
      disableAfterMs: positiveNumber(env.HERALD_WEBHOOK_DISABLE_AFTER_MS, DEFAULT_WEBHOOK_DISPATCH.disableAfterMs, 'HERALD_WEBHOOK_DISABLE_AFTER_MS'),
    },
    session: {
      idleMs: positiveNumber(env.HERALD_SESSION_IDLE_SECONDS, DEFAULT_SESSION_POLICY.idleMs / 1000, 'HERALD_SESSION_IDLE_SECONDS') * 1000,
      absoluteMs: positiveNumber(env.HERALD_SESSION_MAX_SECONDS, DEFAULT_SESSION_POLICY.absoluteMs / 1000, 'HERALD_SESSION_MAX_SECONDS') * 1000,
    },
    trustProxy: trustProxy(env.HERALD_TRUST_PROXY),
    publicOrigin: publicOrigin(env.HERALD_PUBLIC_URL),
  };
}
