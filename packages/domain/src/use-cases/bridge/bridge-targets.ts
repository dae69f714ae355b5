import { DEFAULT_RETRY_POLICY, type RetryPolicy } from '../../entities/retry-policy';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { SharedReads } from '../../shared/shared-reads';
import { hashApiKey } from '../tenancy/api-keys';
import type { BridgeTarget } from './bridge-client';

export type ResolvedBridge = { target: BridgeTarget; policy: RetryPolicy } | { problem: string };

/**
 * An environment's bridge and the secret key to sign its calls with: the unrevoked API key the
 * bridge was synced with (kept encrypted). Read at most every 2 s per environment.
 */
export class BridgeTargets {
  private readonly reads = new SharedReads<ResolvedBridge>(2_000, (v) => 'target' in v);

  constructor(
    private readonly tenancy: Pick<TenancyRepository, 'findEnvironment' | 'apiKeySecrets'>,
    private readonly defaultPolicy: RetryPolicy = DEFAULT_RETRY_POLICY,
  ) {}

  resolve(environmentId: string): Promise<ResolvedBridge> {
    return this.reads.get(environmentId, async () => {
      const environment = await this.tenancy.findEnvironment(environmentId);
      if (!environment?.bridge) return { problem: 'no bridge is synced into this environment: run `novu sync` with its secret key' };
      const { url, keyHash } = environment.bridge;
      const secretKey = (await this.tenancy.apiKeySecrets(environmentId)).find((s) => hashApiKey(s) === keyHash);
      if (!secretKey) return { problem: 'the API key the bridge was synced with is revoked or unknown: sync again with a current secret key' };
      return { target: { url, secretKey }, policy: { ...this.defaultPolicy, ...(environment.retryPolicy ?? {}) } };
    });
  }
}
