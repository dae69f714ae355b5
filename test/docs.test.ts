import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The README is the front door (what Herald is, the two commands, first requests, a map of docs/);
// the rest lives in docs/, one page per concern. These hold it to that shape.
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const README = join(ROOT, 'README.md');
const MAX_README_BYTES = 15_000;
const MAX_LINE_CHARS = 400;

const pages = [README, ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f))];

/** The targets of a page's Markdown links and images, outside fenced code blocks. */
function linkTargets(markdown: string): string[] {
  const prose = markdown.replace(/^(`{3,}|~{3,})[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
  return [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('#') && !target.startsWith('//');

describe('the documentation', () => {
  it(`keeps the README under ${MAX_README_BYTES} bytes`, () => {
    expect(readFileSync(README).byteLength).toBeLessThan(MAX_README_BYTES);
  });

  it(`has no README line over ${MAX_LINE_CHARS} characters`, () => {
    const long = readFileSync(README, 'utf8')
      .split('\n')
      .map((line, i) => ({ line: i + 1, chars: [...line].length }))
      .filter(({ chars }) => chars > MAX_LINE_CHARS);
    expect(long).toEqual([]);
  });

  it('links only to files that exist, from the README and every page of docs/', () => {
    const broken = pages.flatMap((page) =>
      linkTargets(readFileSync(page, 'utf8'))
        .filter(isRelative)
        .map((target) => ({ page: relative(ROOT, page), target, path: resolve(dirname(page), decodeURIComponent(target.split('#')[0])) }))
        .filter(({ path }) => !existsSync(path))
        .map(({ page, target }) => `${page} -> ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('lists every setting the service reads in docs/configuration.md', () => {
    const read = new Set([...readFileSync(join(ROOT, 'apps/http/src/config.ts'), 'utf8').matchAll(/env\.([A-Z][A-Z0-9_]+)/g)].map((m) => m[1]));
    const page = readFileSync(join(ROOT, 'docs/configuration.md'), 'utf8');
    expect(read.size).toBeGreaterThan(10);
    expect([...read].filter((name) => !page.includes(`\`${name}\``))).toEqual([]);
  });

  it("gives, under Workflows as code, the five lines a team changes, with the novu CLI's sync as the e2e tests run it", () => {
    const section = readFileSync(README, 'utf8').split('## Workflows as code')[1]?.split('\n## ')[0] ?? '';
    const lines = (/```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? '').trim().split('\n');
    expect(lines.map((l) => l.split(/\s/)[0].split('=')[0])).toEqual(['NOVU_SECRET_KEY', 'NOVU_API_URL', 'HERALD_ALLOW_PRIVATE_NETWORKS', 'npx', 'pnpm']);
    expect(lines[3]).toMatch(/^npx novu sync -b \S+ -s "\$NOVU_SECRET_KEY" -a "\$NOVU_API_URL"/);
    expect(lines[4]).toMatch(/^pnpm herald workflows promote <workflowId>/);
  });

  it('finds the links it checks', () => {
    expect(linkTargets('[a](docs/a.md) ![b](b.png "B") [c](https://x.org) [d](#e)\n```\n[f](g.md)\n```\n')).toEqual(['docs/a.md', 'b.png', 'https://x.org', '#e']);
    expect(linkTargets(readFileSync(README, 'utf8')).filter(isRelative).length).toBeGreaterThan(0);
  });
});
