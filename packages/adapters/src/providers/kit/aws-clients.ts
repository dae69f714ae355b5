import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import { httpFailure, networkFailure } from './provider-failure';
import { ProviderError, type Credentials } from '@herald/domain';

/** The settings every AWS SDK v3 client of Herald's takes. */
export interface AwsClientConfig {
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  endpoint?: string;
  maxAttempts: number;
  requestHandler: { requestTimeout: number; connectionTimeout: number };
}

type AwsError = { name?: string; message?: string; $metadata?: { httpStatusCode?: number }; $response?: { headers?: Record<string, string> } };

/**
 * AWS SDK v3 clients kept per account and region (building one costs more than a send): the SDK
 * retries nothing (Herald's retry policy does) and times out at the provider deadline.
 */
export class AwsClients<C extends { destroy(): void }> {
  private readonly clients = new LRUCache<string, C>({ max: 100, dispose: (client) => client.destroy() });

  constructor(
    private readonly make: (config: AwsClientConfig) => Promise<C>,
    private readonly options: { baseUrl?: string; timeoutMs: number },
  ) {}

  /** The client of an integration's account (`apiKey` the access key id, `secretKey` its secret, `region`), and its secrets. */
  async forCredentials(credentials: Credentials): Promise<{ client: C; secrets: unknown[] }> {
    const { apiKey, secretKey, region } = credentials;
    if (!apiKey || !secretKey || !region) throw new ProviderError('the integration needs apiKey (access key id), secretKey and region', false);
    return { client: await this.get(String(apiKey), String(secretKey), String(region)), secrets: [secretKey] };
  }

  private async get(accessKeyId: string, secretAccessKey: string, region: string): Promise<C> {
    const key = createHash('sha256').update(`${accessKeyId}\n${secretAccessKey}\n${region}`).digest('hex');
    const cached = this.clients.get(key);
    if (cached) return cached;
    const client = await this.make({
      region,
      credentials: { accessKeyId, secretAccessKey },
      ...(this.options.baseUrl ? { endpoint: this.options.baseUrl } : {}),
      maxAttempts: 1,
      requestHandler: { requestTimeout: this.options.timeoutMs, connectionTimeout: this.options.timeoutMs },
    });
    this.clients.set(key, client);
    return client;
  }

  clear(): void {
    this.clients.clear();
  }
}

/** An AWS SDK error as a ProviderError: no HTTP status means no answer (transient). */
export function awsFailure(error: unknown, secrets: unknown[]): ProviderError {
  const e = error as AwsError;
  const status = e.$metadata?.httpStatusCode;
  if (!status) return networkFailure(e, secrets);
  return httpFailure(status, `${e.name}: ${e.message}`, { name: e.name, message: e.message }, secrets, e.$response?.headers?.['retry-after']);
}
