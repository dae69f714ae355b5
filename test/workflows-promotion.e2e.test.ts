import { execFile } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ManageApiKeys } from '@herald/domain';
import { AesGcmCredentialCipher, connectDatabase, loadEncryptionKey, PrismaTenancyRepository } from '@herald/adapters';
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { novuSync, startBridge, type TestBridge } from './support/bridge';
import { ping } from './support/code-workflows';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';

// Development -> Production: Production's workflows change only by promotion, with a diff first.
const START = fileURLToPath(new URL('../apps/http/scripts/start.mjs', import.meta.url));
let svc: TestService;
let dev: Novu;
let prod: Novu;
let prodKey: string;
let devBridge: TestBridge;
let prodBridge: TestBridge;

function herald(args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [START, 'cli', ...args], { env: { ...process.env, DATABASE_URL: svc.databaseUrl, HERALD_DATA_DIR: dataDir } }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}
const dataDir = fileURLToPath(new URL('../.data-promotion-test', import.meta.url));

beforeAll(async () => {
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_DATA_DIR: dataDir });
  dev = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  const db = connectDatabase(svc.databaseUrl, 2);
  prodKey = (await new ManageApiKeys(new PrismaTenancyRepository(db.prisma, new AesGcmCredentialCipher(loadEncryptionKey({ dataDir })))).create('production')).key;
  await db.close();
  prod = new Novu({ secretKey: prodKey, serverURL: svc.url });
  devBridge = await startBridge([ping], svc.apiKey);
  prodBridge = await startBridge([ping], prodKey);
}, 120_000);
afterAll(async () => {
  devBridge?.close();
  prodBridge?.close();
  await svc?.dispose();
});

describe('promotion', () => {
  it('refuses direct workflow writes in Production', async () => {
    await expect(prod.workflows.create({ name: 'Direct', workflowId: 'direct', steps: [] })).rejects.toMatchObject({ statusCode: 403 });
  });

  it('promotes an API workflow through the API operation, then shows the diff of a change before the CLI promotes it', async () => {
    await dev.workflows.create({ name: 'Welcome', workflowId: 'welcome', steps: [{ type: 'in_app', name: 'Bell', stepId: 'bell', controlValues: { body: 'Hello' } }] });
    const { result } = await dev.workflows.sync({ targetEnvironmentId: 'production' }, 'welcome');
    expect(result).toMatchObject({ workflowId: 'welcome', origin: 'novu-cloud', steps: [{ stepId: 'bell', controlValues: { body: 'Hello' } }] });
    // The answer is the whole workflow as Production now has it, what a GET there returns.
    expect(result).toEqual((await prod.workflows.get('welcome')).result);

    const put = await svc.request('/v2/workflows/welcome', { method: 'PUT', json: { name: 'Welcome', steps: [{ type: 'in_app', name: 'Bell', stepId: 'bell', controlValues: { body: 'Hello again' } }] } });
    expect(put.status).toBe(200);
    const asked = await herald(['workflows', 'promote', 'welcome']);
    expect(asked.output).toMatch(/~ steps\[bell\]\.controlValues: \{"body":"Hello"[^}]*\} -> \{"body":"Hello again"/);
    expect(asked.output).toContain('Not promoted');
    expect((await prod.workflows.get('welcome')).result.steps[0].controlValues).toMatchObject({ body: 'Hello' });
    const done = await herald(['workflows', 'promote', 'welcome', '--yes']);
    expect(done.code, done.output).toBe(0);
    expect((await prod.workflows.get('welcome')).result.steps[0].controlValues).toMatchObject({ body: 'Hello again' });
  }, 60_000);

  it('promotes a synced workflow once Production has its bridge, and it runs there on that bridge', async () => {
    expect((await novuSync(devBridge.url, svc.apiKey, svc.url)).code).toBe(0);
    await expect(dev.workflows.sync({ targetEnvironmentId: 'production' }, 'ping')).rejects.toMatchObject({ statusCode: 400 });
    // In Production a sync only registers the bridge: no workflow appears without promotion.
    const sync = await novuSync(prodBridge.url, prodKey, svc.url);
    expect(sync.code, sync.output).toBe(0);
    await expect(prod.workflows.get('ping')).rejects.toMatchObject({ statusCode: 404 });
    await dev.workflows.sync({ targetEnvironmentId: 'production' }, 'ping');
    expect((await prod.workflows.get('ping')).result.origin).toBe('external');
    await prod.trigger({ workflowId: 'ping', to: 'grace', payload: { n: 5 }, transactionId: 'prod-ping' });
    await waitFor(async () => prodBridge.calls.includes('execute:ping:bell'));
    const job = await waitFor(async () => {
      const r = await fetch(`${svc.url}/v1/notifications?transactionId=prod-ping`, { headers: { authorization: `ApiKey ${prodKey}` } });
      return (await r.json()).data[0]?.jobs.find((j: { status: string }) => j.status === 'completed');
    });
    expect(job).toBeTruthy();
    expect(devBridge.calls).not.toContain('execute:ping:bell');
  }, 60_000);

  it('exports the API-defined workflows as files and imports them', async () => {
    const dir = `${dataDir}/workflows`;
    const out = await herald(['workflows', 'export', '--dir', dir]);
    expect(out.output).toMatch(/Wrote 1 workflow file/);
    await dev.workflows.delete('welcome');
    // All or none: a file naming the synced ping refuses the import, and welcome.json is not written either.
    writeFileSync(`${dir}/ping.json`, JSON.stringify({ workflowId: 'ping', name: 'Ping', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'hi' } }] }));
    const refused = await herald(['workflows', 'import', '--dir', dir]);
    rmSync(`${dir}/ping.json`);
    expect(refused.code).not.toBe(0);
    expect(refused.output).toMatch(/ping\.json: Workflow 'ping' is synced from a bridge: its definition lives in code; nothing was imported/);
    await expect(dev.workflows.get('welcome')).rejects.toMatchObject({ statusCode: 404 });
    expect((await dev.workflows.get('ping')).result.origin).toBe('external');
    const back = await herald(['workflows', 'import', '--dir', dir]);
    expect(back.output).toMatch(/1 created \(welcome\)/);
    expect((await dev.workflows.get('welcome')).result.steps[0].controlValues).toMatchObject({ body: 'Hello again' });
    expect((await herald(['workflows', 'import', '--dir', dir, '--environment', 'production'])).output).toMatch(/change only by promotion/);
  }, 120_000);
});
