import type { DeliveryProvider, HttpClient, ProviderRegistry } from '@herald/domain';
import type { BuiltProvider, ProviderDefinition } from './kit/provider-definition';
import { withDeadline } from './kit/provider-deadline';
import type { ProviderEndpoints } from './kit/provider-failure';
import { REGISTERED_PROVIDERS } from './registered-providers';

export interface ProviderSettings {
  /** Let tenant-configured hosts (SMTP servers) be private, loopback or link-local addresses. */
  allowPrivateNetworks: boolean;
  /** Operator-set API base URLs by provider id, for sandboxes, proxies and tests. */
  endpoints: ProviderEndpoints;
  /** The deadline of one provider call (default 15 s). */
  timeoutMs?: number;
}

const SVC = 'svc';

/** A registered id with the service name in place of `svc` (`svc-email` -> `herald-email`). */
export function registeredId(genericId: string, serviceName: string): string {
  return genericId.startsWith(`${SVC}-`) ? `${serviceName}${genericId.slice(SVC.length)}` : genericId;
}

/** The providers this build can send through, by providerId: built once from REGISTERED_PROVIDERS. */
export class StaticProviderRegistry implements ProviderRegistry {
  private readonly providers = new Map<string, BuiltProvider>();
  private readonly wrapped = new Map<string, DeliveryProvider>();

  constructor(
    serviceName: string,
    http: HttpClient,
    settings: ProviderSettings = { allowPrivateNetworks: false, endpoints: {} },
    definitions: readonly ProviderDefinition[] = REGISTERED_PROVIDERS,
  ) {
    const timeoutMs = settings.timeoutMs ?? 15_000;
    for (const definition of definitions) {
      const id = registeredId(definition.id, serviceName);
      const endpoint = Object.hasOwn(settings.endpoints, id) ? settings.endpoints[id] : undefined;
      const provider = definition.create({ http, endpoint, allowPrivateNetworks: settings.allowPrivateNetworks, serviceName, timeoutMs });
      this.providers.set(id, provider);
      this.wrapped.set(id, withDeadline(provider, timeoutMs));
    }
  }

  get(providerId: string): DeliveryProvider | null {
    return this.wrapped.get(providerId) ?? null;
  }

  /** Provider ids this registry sends through. */
  ids(): string[] {
    return [...this.wrapped.keys()];
  }

  /** Releases what providers keep between sends (firebase apps, pools). */
  async close(): Promise<void> {
    await Promise.all([...this.providers.values()].map((p) => p.close?.()));
  }
}
