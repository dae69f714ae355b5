import type { HttpClient, ReceiptReader, ReceiptReaders } from '@herald/domain';
import type { ProviderDefinition } from '../providers/kit/provider-definition';
import { REGISTERED_PROVIDERS } from '../providers/registered-providers';

/** The receipt readers of the registered providers that send receipts, built once. */
export class StaticReceiptReaders implements ReceiptReaders {
  private readonly readers = new Map<string, ReceiptReader>();

  constructor(http: HttpClient, settings: { snsTrustedOrigin?: string } = {}, definitions: readonly ProviderDefinition[] = REGISTERED_PROVIDERS) {
    for (const definition of definitions) {
      const reader = definition.receipts?.({ http, snsTrustedOrigin: settings.snsTrustedOrigin });
      if (reader) this.readers.set(definition.id, reader);
    }
  }

  forProvider(providerId: string): ReceiptReader | null {
    return this.readers.get(providerId) ?? null;
  }

  /** Provider ids whose receipts are taken (the docs' table). */
  ids(): string[] {
    return [...this.readers.keys()];
  }
}
