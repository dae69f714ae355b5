// Bundles the demo page's script (the official @novu/js UI Inbox) with esbuild into
// dist/inbox-demo/, so the page fetches nothing from outside Herald at run time.
// Runs on `pnpm install` (postinstall) and with `pnpm --filter @herald/http build:inbox-demo`.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
await build({
  entryPoints: [`${root}src/inbox-demo/inbox-demo.browser.mjs`],
  outfile: `${root}dist/inbox-demo/inbox-demo.js`,
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2020',
  minify: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});
