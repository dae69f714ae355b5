// Builds the dashboard into dist/ (index.html, app.js, app.css) with esbuild, the bundler the
// workspace already has: one pass, about a second, nothing fetched at run time. Runs on
// `pnpm install` (postinstall) and before the browser tests. The provider catalogue (ids by channel,
// required credential fields) and the condition operators are written from the domain's own tables
// first, so the integration forms ask for what the server validates.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { FILTER_OPERATORS, FILTER_SOURCES, providerCatalogue, requiredCredentials } from '@herald/domain';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = `${root}dist/`;

const catalogue = providerCatalogue('herald');
const providers = catalogue.ids
  .map((id) => catalogue.find(id)!)
  .filter((p) => !p.builtIn && p.channel)
  .map((p) => ({ id: p.id, channel: p.channel, required: requiredCredentials(p) }));
await mkdir(`${root}src/generated`, { recursive: true });
await writeFile(`${root}src/generated/providers.json`, JSON.stringify(providers));
// The condition editor's operators and sources, from the tables the server validates against.
await writeFile(`${root}src/generated/filters.json`, JSON.stringify({ operators: FILTER_OPERATORS, sources: FILTER_SOURCES }));

const started = Date.now();
const result = await build({
  entryPoints: { app: `${root}src/main.tsx` },
  outdir: dist,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  jsx: 'automatic',
  minify: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  metafile: true,
  logLevel: 'warning',
});
await writeFile(`${dist}app.css`, await readFile(`${root}src/styles.css`));
await writeFile(
  `${dist}index.html`,
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Herald dashboard</title>
<link rel="stylesheet" href="/dashboard/assets/app.css">
<script type="module" src="/dashboard/assets/app.js"></script>
</head>
<body><div id="root"></div></body>
</html>
`,
);
const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
console.log(`dashboard built in ${Date.now() - started} ms (${Math.round(bytes / 1024)} KB of JavaScript before gzip)`);
