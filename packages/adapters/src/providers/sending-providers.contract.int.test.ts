import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { REGISTERED_PROVIDERS } from './registered-providers';
import type { ProviderFake } from './testing/provider-fake';
import { sendingProviderContract } from './testing/sending-provider-contract';

// Every provider's fixture (fakes/<id>.fake.ts), found by name: a new provider adds its file, nothing here.
const dir = join(import.meta.dirname, 'fakes');
const fixtures: ProviderFake[] = [];
for (const file of readdirSync(dir).filter((f) => f.endsWith('.fake.ts')).sort()) {
  fixtures.push(((await import(/* @vite-ignore */ pathToFileURL(join(dir, file)).href)) as { fake: ProviderFake }).fake);
}

// The development outbox sinks send nowhere: nothing to hold to a service's contract.
const SINKS = new Set(['svc-email', 'svc-sms']);

describe('sending providers', () => {
  it('every registered provider that sends has a fake, and every fake a registered provider', () => {
    const sending = REGISTERED_PROVIDERS.map((p) => p.id).filter((id) => !SINKS.has(id));
    expect(fixtures.map((f) => f.id).sort()).toEqual(sending.sort());
  });
});

for (const fixture of fixtures) sendingProviderContract(fixture);
