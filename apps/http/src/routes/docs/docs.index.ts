import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Hono } from 'hono';

// swagger-ui's assets are served from the installed package: the page works without internet access.
const assetsDir = join(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'), '..');
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
};

const page = (title: string) => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title} API reference</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script>window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', deepLinking: true, persistAuthorization: true });</script>
</body></html>`;

/** GET /docs: an interactive reference rendered from GET /openapi.json. */
export function docsRouter(serviceName: string) {
  return new Hono()
    .get('/docs', (c) => c.html(page(serviceName)))
    .get('/docs/assets/:file', async (c) => {
      const file = c.req.param('file');
      const type = ASSETS[file];
      if (!type) return c.notFound();
      const body = await readFile(join(assetsDir, file));
      return c.body(body, 200, { 'content-type': type, 'cache-control': 'public, max-age=86400' });
    });
}
