import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve as listen, type ServerType } from '@hono/node-server';
import { Client, type Workflow } from '@novu/framework';
import { serve } from '@novu/framework/hono';
import { Hono } from 'hono';

const NOVU_CLI = fileURLToPath(new URL('../../node_modules/novu/dist/src/index.js', import.meta.url));

export interface TestBridge {
  /** The bridge endpoint, as a team gives it to `novu sync` (…/api/novu). */
  url: string;
  /** Actions the bridge was asked for, in order (`execute:order-digest:score`). */
  calls: string[];
  /** Serves these workflows, verifying signatures with this key, from now on (a redeploy of the app). */
  deploy(workflows: Workflow[], secretKey: string): void;
  /** While down, every request gets 503 (a bridge behind a gateway whose app is restarting). */
  down: boolean;
  close(): void;
}

/** An app serving code-defined workflows with the real @novu/framework `serve` handler (Hono), on loopback. */
export async function startBridge(workflows: Workflow[], secretKey: string): Promise<TestBridge> {
  let handler: (c: never) => Promise<Response>;
  const app = new Hono();
  const bridge = {
    url: '',
    calls: [] as string[],
    down: false,
    deploy(next: Workflow[], key: string) {
      // strictAuthentication: a bridge in production verifies every signed request (the default outside NODE_ENV=development).
      handler = serve({ workflows: next, client: new Client({ secretKey: key, strictAuthentication: true }) }) as typeof handler;
    },
    close: () => server.close(),
  };
  bridge.deploy(workflows, secretKey);
  app.on(['GET', 'POST', 'OPTIONS'], '/api/novu', async (c) => {
    const q = (name: string) => c.req.query(name) ?? '';
    bridge.calls.push([q('action'), q('workflowId'), q('stepId')].filter(Boolean).join(':'));
    if (bridge.down) return c.json({ message: 'bridge app restarting' }, 503);
    return handler(c as never);
  });
  const server: ServerType = await new Promise((resolve) => {
    const s = listen({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(s));
  });
  bridge.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/novu`;
  return bridge;
}

/** Runs the real `novu` CLI's `sync`, offline: no analytics, its config store in a temp dir. */
export function novuSync(bridgeUrl: string, secretKey: string, apiUrl: string): Promise<{ code: number; output: string }> {
  const env = { ...process.env, ANALYTICS_ENABLED: 'false', XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), 'novu-cli-')), NODE_ENV: 'test' };
  return new Promise((resolve) => {
    execFile(process.execPath, [NOVU_CLI, 'sync', '-b', bridgeUrl, '-s', secretKey, '-a', apiUrl], { env, timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` });
    });
  });
}
