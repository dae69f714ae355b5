import { describe, expect, it } from 'vitest';
import type { ProviderRegistry } from '../ports/delivery-provider';

export interface ProviderRegistryFixture {
  registry: ProviderRegistry;
  /** Provider ids this registry can send through. */
  known: string[];
}

/**
 * The behaviour every ProviderRegistry has; run against the in-memory double and the static registry.
 * (What each provider sends is its own test's, against a loopback fake of its service.)
 */
export function providerRegistryContract(name: string, setup: () => Promise<ProviderRegistryFixture>): void {
  describe(`ProviderRegistry contract: ${name}`, () => {
    it('gives one provider per known id, the same each time, and null for an id it cannot send through', async () => {
      const { registry, known } = await setup();
      expect(known.length).toBeGreaterThan(0);
      for (const id of known) {
        const provider = registry.get(id);
        expect(typeof provider?.send).toBe('function');
        expect(registry.get(id)).toBe(provider);
      }
      for (const id of ['unknown-provider', '', 'SENDGRID', 'constructor', '__proto__']) expect(registry.get(id)).toBeNull();
    });
  });
}
