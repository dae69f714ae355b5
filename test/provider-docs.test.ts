import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REGISTERED_PROVIDERS } from '@herald/adapters';
import { describe, expect, it } from 'vitest';
import type { ProviderFake } from '../packages/adapters/src/providers/testing/provider-fake';
import { notSendingList, providerDetails, whatSendsCompact, whatSendsTable } from '../packages/adapters/src/providers/testing/provider-docs';

// The README's What sends table and not-sending list, and the provider tables in docs/providers.md are generated from
// the registry, the domain's credential catalogue and the contract fakes; this test fails when they drift.
// PROVIDER_DOCS=write rewrites them.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FAKES = join(ROOT, 'packages/adapters/src/providers/fakes');
const fakes: ProviderFake[] = [];
for (const file of readdirSync(FAKES).filter((f) => f.endsWith('.fake.ts')).sort()) {
  fakes.push(((await import(pathToFileURL(join(FAKES, file)).href)) as { fake: ProviderFake }).fake);
}
const adapters = JSON.parse(readFileSync(join(ROOT, 'packages/adapters/package.json'), 'utf8')) as { dependencies: Record<string, string> };

/** The text between `<!-- name:start -->` and `<!-- name:end -->`. */
const marked = (name: string) => new RegExp(`<!-- ${name}:start -->\\n([\\s\\S]*?)\\n?<!-- ${name}:end -->`);
function section(text: string, name: string): string {
  return marked(name).exec(text)?.[1] ?? `(no ${name} section)`;
}

const generated = [
  { file: 'README.md', name: 'sends-table', text: whatSendsCompact(REGISTERED_PROVIDERS) },
  { file: 'README.md', name: 'not-sending', text: notSendingList(REGISTERED_PROVIDERS) },
  { file: 'docs/providers.md', name: 'what-sends', text: whatSendsTable(REGISTERED_PROVIDERS) },
  { file: 'docs/providers.md', name: 'provider-details', text: providerDetails(REGISTERED_PROVIDERS, fakes, adapters.dependencies) },
];

describe('provider tables', () => {
  it.each(generated)('$file $name is what the registry says', ({ file, name, text }) => {
    const path = join(ROOT, file);
    const current = readFileSync(path, 'utf8');
    if (process.env.PROVIDER_DOCS === 'write') writeFileSync(path, current.replace(marked(name), () => `<!-- ${name}:start -->\n${text}\n<!-- ${name}:end -->`));
    expect(section(readFileSync(path, 'utf8'), name)).toBe(text);
  });

  it.each([
    { file: 'docs/providers.md', name: 'what-sends' },
    { file: 'README.md', name: 'sends-table' },
  ])('the What sends table of $file names every registered provider, and no other', ({ file, name }) => {
    const table = section(readFileSync(join(ROOT, file), 'utf8'), name);
    const listed = [...table.matchAll(/^\| \w+ \| (`[^|]+`) \|/gm)].flatMap((m) => [...m[1].matchAll(/`([^`]+)`/g)].map((id) => id[1])).sort();
    const registered = REGISTERED_PROVIDERS.map((p) => p.id).filter((id) => !id.startsWith('svc-')).sort();
    expect(listed).toEqual(registered);
  });
});
