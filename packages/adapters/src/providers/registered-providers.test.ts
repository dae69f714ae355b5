import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { credentialFields, providerCatalogue } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import type { ProviderDefinition } from './kit/provider-definition';
import { REGISTERED_PROVIDERS } from './registered-providers';

const files = readdirSync(import.meta.dirname).filter((f) => f.endsWith('-provider.ts'));
const catalogue = providerCatalogue('svc');

describe('registered providers', () => {
  it.each(files)('%s: every provider it defines is registered', async (file) => {
    const { providers } = (await import(/* @vite-ignore */ pathToFileURL(join(import.meta.dirname, file)).href)) as { providers?: ProviderDefinition[] };
    expect(providers?.length, `${file} exports no providers`).toBeGreaterThan(0);
    for (const provider of providers!) expect(REGISTERED_PROVIDERS).toContain(provider);
  });

  it('each id once, each an id of the interface on a channel, with a line of what it sends through', () => {
    const ids = REGISTERED_PROVIDERS.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const provider of REGISTERED_PROVIDERS) {
      const info = catalogue.find(provider.id);
      expect(info?.channel, provider.id).toBeTruthy();
      expect(provider.through.length).toBeGreaterThan(3);
    }
  });

  it('a provider needing credentials has them in the domain catalogue', () => {
    for (const id of ['sendgrid', 'nodemailer', 'twilio', 'fcm']) expect(credentialFields(id).required.length, id).toBeGreaterThan(0);
  });
});
