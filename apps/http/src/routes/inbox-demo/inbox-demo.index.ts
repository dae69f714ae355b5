import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { DomainError, ManageApiKeys } from '@herald/domain';
import { Hono } from 'hono';
import type { AppEnv, Resolver } from '../../platform/app-env';
import { demoPage } from './inbox-demo.page';

const BUNDLE = fileURLToPath(new URL('../../../dist/inbox-demo/inbox-demo.js', import.meta.url));

/**
 * Development only: /inbox/demo?subscriberId=... mounts the official Inbox against this Herald.
 * Its script was bundled at install time (scripts/build-inbox-demo.mjs); nothing is fetched from outside.
 */
export function inboxDemoRouter(resolve: Resolver, serviceName: string) {
  const environments = resolve.get(ManageApiKeys);
  let bundle: Promise<Buffer> | undefined;

  return new Hono<AppEnv>()
    .get('/inbox/demo', async (c) => {
      const subscriberId = c.req.query('subscriberId') || 'demo-subscriber';
      const slug = c.req.query('environment') || 'development';
      const environment = (await environments.listEnvironments()).find((e) => e.slug === slug);
      if (!environment) throw DomainError.field('environment', 'is not the slug of an environment', slug);
      return c.html(demoPage({ applicationIdentifier: environment.publicIdentifier, subscriberId, environment: environment.slug }, serviceName));
    })
    .get('/inbox/demo/inbox-demo.js', async (c) => {
      bundle ??= readFile(BUNDLE);
      const body = await bundle.catch(() => {
        bundle = undefined;
        return null;
      });
      if (!body) return c.text('The demo bundle is missing: run pnpm --filter @herald/http build:inbox-demo', 503);
      return c.body(new Uint8Array(body), 200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' });
    });
}
