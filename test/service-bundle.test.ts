import { existsSync } from 'node:fs';
import { readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { EARLIER_BUILD_GRACE_MS, SERVICE_DIR, buildService } from '../apps/http/scripts/build-service.mjs';
import { SERVICE_NODE_FLAGS } from '../apps/http/scripts/node-flags.mjs';

describe('the service bundle (dist/service)', () => {
  it('removes the files of earlier builds once no start can still be loading them, and keeps recent ones', async () => {
    const old = join(SERVICE_DIR, 'chunk-EARLIERBUILDTEST.js');
    const recent = join(SERVICE_DIR, 'chunk-RECENTBUILDTEST.js');
    await writeFile(old, 'export {};\n');
    await writeFile(recent, 'export {};\n');
    const past = new Date(Date.now() - EARLIER_BUILD_GRACE_MS - 60_000);
    await utimes(old, past, past);
    try {
      await buildService();
      expect(existsSync(old)).toBe(false);
      expect(existsSync(recent)).toBe(true);
      // What the build wrote stays, however old the files it overwrote were.
      expect(existsSync(join(SERVICE_DIR, 'main.js'))).toBe(true);
      expect(existsSync(join(SERVICE_DIR, 'inputs.json'))).toBe(true);
    } finally {
      await Promise.all([rm(old, { force: true }), rm(recent, { force: true })]);
    }
  });

  it('keeps a file the last build wrote, however old, for the grace period after a rebuild replaces it', async () => {
    const replaced = join(SERVICE_DIR, 'chunk-REPLACEDBUILDTEST.js');
    await writeFile(replaced, 'export {};\n');
    const past = new Date(Date.now() - EARLIER_BUILD_GRACE_MS - 60_000);
    await utimes(replaced, past, past);
    // As if the last build had written it: a service started from that build may still load it.
    const inputs = join(SERVICE_DIR, 'inputs.json');
    const record = JSON.parse(await readFile(inputs, 'utf8'));
    await writeFile(inputs, JSON.stringify({ ...record, outputs: [...(record.outputs ?? []), 'chunk-REPLACEDBUILDTEST.js'] }));
    try {
      await buildService();
      expect(existsSync(replaced)).toBe(true);
      expect(Date.now() - (await stat(replaced)).mtimeMs).toBeLessThan(60_000);
    } finally {
      await rm(replaced, { force: true });
    }
  });
});

describe('what the bundle holds', () => {
  it('has the packages of many small modules inside it, leaves pg to Node (tracing patches it), and checks only our files', async () => {
    await buildService();
    const { inputs, outputs } = JSON.parse(await readFile(join(SERVICE_DIR, 'inputs.json'), 'utf8')) as { inputs: string[]; outputs: string[] };
    const code = (await Promise.all(outputs.filter((f) => f.endsWith('.js')).map((f) => readFile(join(SERVICE_DIR, f), 'utf8')))).join('\n');
    const importedFromNodeModules = (name: string) => new RegExp(`from "file://[^"]*/node_modules/\\.pnpm/${name}@`).test(code);
    // esbuild heads each bundled file with its path.
    const bundledHere = (name: string) => code.includes(`// ../../node_modules/.pnpm/${name}@`);
    // (pnpm's folder names: @scope+name.)
    for (const bundled of ['@inversifyjs+core', 'zod', 'hono', 'ajv', 'pg-boss', 'socket.io']) {
      expect(importedFromNodeModules(bundled), bundled).toBe(false);
      expect(bundledHere(bundled), bundled).toBe(true);
    }
    expect(importedFromNodeModules('inversify')).toBe(false);
    expect(importedFromNodeModules('pg')).toBe(true);
    expect(bundledHere('pg')).toBe(false);
    // A start checks our files and the lockfile, not the bundled packages' thousands.
    expect(inputs.filter((f) => f.includes('node_modules'))).toEqual([]);
    expect(inputs.some((f) => f.endsWith('pnpm-lock.yaml'))).toBe(true);
  });
});

describe('pnpm start', () => {
  it('runs the service with the Node flags that tests and benchmarks start it with', async () => {
    const scripts = async (path: string) => JSON.parse(await readFile(fileURLToPath(new URL(path, import.meta.url)), 'utf8')).scripts;
    expect(SERVICE_NODE_FLAGS.length).toBeGreaterThan(0);
    expect((await scripts('../package.json')).start).toBe(`node ${SERVICE_NODE_FLAGS.join(' ')} apps/http/scripts/start.mjs`);
    expect((await scripts('../apps/http/package.json')).start).toBe(`node ${SERVICE_NODE_FLAGS.join(' ')} scripts/start.mjs`);
  });
});
