import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps } from './support/workflow-rows';

// A subscriber's channel settings through the credentials routes, as @novu/api calls them, and a chat
// message delivered to the webhook URL they set (a loopback HTTP server stands in for the chat service).
let svc: TestService;
let novu: Novu;
let server: Server;
let base: string;
const received: Array<{ path: string; body: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', body });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.integrations.create({ providerId: 'chat-webhook', channel: 'chat', identifier: 'team-chat', active: true });
  await novu.integrations.create({ providerId: 'push-webhook', channel: 'push', identifier: 'phones', credentials: { webhookUrl: `${base}/push` }, active: true });
  await novu.subscribers.create({ subscriberId: 'oncall', firstName: 'Grace' });
});
afterAll(async () => {
  await svc?.dispose();
  server?.close();
});

const channels = async () => Object.fromEntries(((await novu.subscribers.retrieve('oncall')).result.channels ?? []).map((c) => [c.providerId, c.credentials]));

describe('a subscriber’s channel settings through /v1/subscribers/{subscriberId}/credentials', () => {
  it('sets (PUT), adds to (PATCH) and removes (DELETE) one integration’s settings; chat goes to the URL set', async () => {
    await novu.subscribers.credentials.update({ providerId: 'chat-webhook', integrationIdentifier: 'team-chat', credentials: { webhookUrl: `${base}/chat/old` } }, 'oncall');
    await novu.subscribers.credentials.update({ providerId: 'chat-webhook', credentials: { webhookUrl: `${base}/chat/oncall` } }, 'oncall');
    await novu.subscribers.credentials.update({ providerId: 'push-webhook', credentials: { deviceTokens: ['t1'] } }, 'oncall');
    await novu.subscribers.credentials.append({ providerId: 'push-webhook', credentials: { deviceTokens: ['t2'] } }, 'oncall');
    expect(await channels()).toEqual({ 'chat-webhook': { webhookUrl: `${base}/chat/oncall` }, 'push-webhook': { deviceTokens: ['t1', 't2'] } });
    await novu.subscribers.credentials.update({ providerId: 'push-webhook', credentials: { deviceTokens: ['t3'] } }, 'oncall');
    expect((await channels())['push-webhook']).toEqual({ deviceTokens: ['t3'] });

    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'page' }, [{ type: 'chat', stepId: 'chat', controlValues: { body: 'Paged: {{payload.what}}' } }]);
    await novu.trigger({ workflowId: 'page', to: 'oncall', payload: { what: 'disk full' } });
    const hook = await waitFor(async () => received.find((r) => r.path.startsWith('/chat/')));
    expect(hook.path).toBe('/chat/oncall');
    expect(JSON.parse(hook.body)).toMatchObject({ channel: 'chat', body: 'Paged: disk full' });

    await novu.subscribers.credentials.delete('oncall', 'chat-webhook');
    expect(Object.keys(await channels())).toEqual(['push-webhook']);
  });

  it('refuses an unknown subscriber, an integration the environment lacks and an unknown key, changing nothing', async () => {
    const before = await channels();
    const put = (path: string, json: unknown) => svc.request(path, { method: 'PUT', json });
    const missing = await put('/v1/subscribers/nobody/credentials', { providerId: 'chat-webhook', credentials: { webhookUrl: `${base}/x` } });
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('SUBSCRIBER_NOT_FOUND');
    const noIntegration = await put('/v1/subscribers/oncall/credentials', { providerId: 'slack', credentials: { webhookUrl: `${base}/x` } });
    expect(noIntegration.status).toBe(422);
    expect(Object.keys((await noIntegration.json()).errors)).toEqual(['providerId']);
    const wrongIdentifier = await put('/v1/subscribers/oncall/credentials', { providerId: 'chat-webhook', integrationIdentifier: 'other', credentials: {} });
    expect(wrongIdentifier.status).toBe(422);
    const misspelt = await put('/v1/subscribers/oncall/credentials', { providerId: 'chat-webhook', credentials: { webhookURL: `${base}/x` } });
    expect(misspelt.status).toBe(422);
    expect(Object.keys((await misspelt.json()).errors)).toEqual(['credentials.webhookURL']);
    expect((await svc.request('/v1/subscribers/nobody/credentials/slack', { method: 'DELETE' })).status).toBe(404);
    expect(await channels()).toEqual(before);
  });
});
