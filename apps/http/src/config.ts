import { resolve } from 'node:path';

/** Every setting Herald reads, with its default; the README's configuration table mirrors this. */
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
  /** Run delivery workers in this process (off: an API-only process). */
  runWorkers: boolean;
  /** Serve the Inbox demo page at /inbox/demo (development; off when NODE_ENV=production). */
  inboxDemo: boolean;
}

function flag(value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(value.toLowerCase());
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
    runWorkers: flag(env.HERALD_WORKERS, true),
    inboxDemo: flag(env.HERALD_INBOX_DEMO, env.NODE_ENV !== 'production'),
  };
}
