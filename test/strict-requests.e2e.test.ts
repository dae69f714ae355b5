import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';

// Issue 39: a request Herald misreads must not change data. Every route that changes or deletes data
// refuses an unknown key (or a body or query it does not take) with a 422 naming it; fields the
// official clients send stay known.
let svc: TestService;
let novu: Novu;
let applicationIdentifier: string;

async function refused(res: Response, field: string): Promise<void> {
  expect(res.status, `${field}: ${res.status}`).toBe(422);
  const body = (await res.json()) as { code: string; message: string; errors: Record<string, { messages: string[] }> };
  expect(body.code).toBe('VALIDATION_FAILED');
  expect(Object.keys(body.errors)).toContain(field);
  expect(body.message).toContain(field);
}

const read = async (path: string) => (await svc.request(path)).json() as Promise<any>;
const send = (method: string, path: string, json?: unknown) => svc.request(path, { method, ...(json === undefined ? {} : { json }) });

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  applicationIdentifier = (await read('/v1/environments/me')).data.identifier;
  await novu.subscribers.create({ subscriberId: 'alice', firstName: 'Alice' });
  const steps = [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi' } }];
  expect((await send('POST', '/v2/workflows', { name: 'Welcome', workflowId: 'wf', steps })).status).toBe(201);
  expect((await send('POST', '/v2/topics', { key: 'news', name: 'News' })).status).toBe(201);
});
afterAll(() => svc?.dispose());

describe('a misspelt key is refused by name and changes nothing', () => {
  it('a preferences PATCH with "workflow" for "workflowId" is a 422, never a global change', async () => {
    await refused(await send('PATCH', '/v2/subscribers/alice/preferences', { workflow: 'wf', channels: { email: false } }), 'workflow');
    await refused(await send('PATCH', '/v2/subscribers/alice/preferences', { workflowId: 'wf', channels: { emial: false } }), 'channels.emial');
    await refused(await send('PATCH', '/v2/subscribers/alice/preferences', { workflowId: 'wf' }), 'channels');
    const { data } = await read('/v2/subscribers/alice/preferences');
    expect(data.global.channels.email).toBe(true);
    expect(data.workflows.find((w: any) => w.workflow.identifier === 'wf').channels.email).toBe(true);
    // Contextual preferences are not kept: refused rather than applied to every context.
    await refused(await send('PATCH', '/v2/subscribers/alice/preferences', { channels: { email: false }, context: { tenant: 'acme' } }), 'context');
    expect((await read('/v2/subscribers/alice/preferences')).data.global.channels.email).toBe(true);
  });

  it('the Inbox preference routes refuse typos and a workflowId on the global route; an unknown topic subscription changes nothing', async () => {
    const session = await (await fetch(`${svc.url}/v1/inbox/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ applicationIdentifier, subscriber: { subscriberId: 'alice' } }) })).json();
    const patch = (path: string, body: unknown) =>
      fetch(`${svc.url}/v1/inbox/preferences${path}`, { method: 'PATCH', headers: { authorization: `Bearer ${session.data.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    await refused(await patch('', { workflowId: 'wf', email: false }), 'workflowId');
    await refused(await patch('', { emial: false }), 'emial');
    await refused(await patch('/wf', { in_app: false, channels: { email: false } }), 'channels');
    await refused(await patch('/bulk', { preferences: [{ workflowId: 'wf', emial: false }] }), 'preferences.0.emial');
    // A topic subscription's preference is its own: one that does not exist is a 404, never the workflow's preference instead.
    expect((await patch('/bulk', { preferences: [{ subscriptionIdentifier: 'tk_news:si_alice', workflowId: 'wf', enabled: false, email: false }] })).status).toBe(404);
    const { data } = await read('/v2/subscribers/alice/preferences');
    expect(data.global.channels).toMatchObject({ email: true, in_app: true });
    expect(data.workflows[0].channels).toMatchObject({ email: true, in_app: true });
  });

  it('subscribers, topics, workflows and triggers refuse unknown keys, at any depth, and store nothing', async () => {
    await refused(await send('PATCH', '/v2/subscribers/alice', { firstname: 'Mallory' }), 'firstname');
    await refused(await send('POST', '/v2/subscribers', { subscriberId: 'bob', nmae: 'Bob' }), 'nmae');
    await refused(await send('PATCH', '/v1/subscribers/alice/online-status', { isOnline: true, online: true }), 'online');
    await refused(await send('PUT', '/v1/subscribers/alice/credentials', { providerId: 'chat-webhook', credentials: { webhookURL: 'https://chat.example/hook' } }), 'credentials.webhookURL');
    await refused(await send('PATCH', '/v1/subscribers/alice/credentials', { providerId: 'chat-webhook', credentials: {}, integration: 'chat-1' }), 'integration');
    await refused(await send('POST', '/v2/topics', { key: 'sports', nmae: 'Sports' }), 'nmae');
    await refused(await send('PATCH', '/v2/workflows/wf', { actve: false }), 'actve');
    await refused(await send('POST', '/v2/workflows', { name: 'Other', steps: [{ name: 'Inbox', type: 'in_app', controlValue: { body: 'x' } }] }), 'steps.0.controlValue');
    await refused(await send('POST', '/v1/events/trigger', { name: 'wf', to: 'alice', transactionid: 'tx-1' }), 'transactionid');
    await refused(await send('POST', '/v1/events/trigger', { name: 'wf', to: [{ subscriberId: 'carol', fistName: 'Carol' }] }), 'to.0.fistName');
    expect((await read('/v2/subscribers/alice')).data).toMatchObject({ firstName: 'Alice', isOnline: null, channels: [] });
    expect((await svc.request('/v2/subscribers/bob')).status).toBe(404);
    expect((await svc.request('/v2/subscribers/carol')).status).toBe(404);
    expect((await svc.request('/v2/topics/sports')).status).toBe(404);
    expect((await read('/v2/workflows/wf')).data.active).toBe(true);
    expect((await read('/v2/workflows')).data.totalCount).toBe(1);
    expect((await read('/v1/notifications')).data).toEqual([]);
  });

  it('a query key a route does not take, and a body on a route that takes none, are refused', async () => {
    await refused(await send('POST', '/v2/subscribers?failIfExist=true', { subscriberId: 'dave' }), 'failIfExist');
    expect((await svc.request('/v2/subscribers/dave')).status).toBe(404);
    await refused(await send('DELETE', '/v2/topics/news', { force: true }), 'force');
    await refused(await send('DELETE', '/v2/topics/news?cascade=false'), 'cascade');
    expect((await svc.request('/v2/topics/news')).status).toBe(200);
    // No body, or the empty object clients send for "nothing", is fine.
    expect((await send('DELETE', '/v2/topics/news', {})).status).toBe(200);
  });
});

describe('fields the official clients send stay known', () => {
  it('@novu/api and @novu/framework trigger, topic, workflow, integration and preference fields are accepted', async () => {
    // @novu/framework's trigger adds bridgeUrl, controls, agentId; @novu/api's tenant is an object.
    const trigger = await send('POST', '/v1/events/trigger', {
      name: 'wf', to: 'alice', payload: {}, overrides: {}, bridgeUrl: 'https://bridge.example.com', controls: {}, agentId: null, tenant: { identifier: 'acme', name: 'Acme', data: {} },
    });
    expect(trigger.status).toBe(201);
    expect((await send('POST', '/v2/topics', { key: 'with-data', name: 'Data', data: { a: 1 } })).status).toBe(201);
    expect((await send('PATCH', '/v2/topics/with-data', { name: 'Renamed', data: null })).status).toBe(200);
    const workflow = { name: 'Second', workflowId: 'second', __source: 'editor', agent: null, steps: [{ _id: 'x', name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi' }, providerOverrides: null }] };
    expect((await send('POST', '/v2/workflows', workflow)).status).toBe(201);
    const integration = await novu.integrations.create({ providerId: 'chat-webhook', channel: 'chat', identifier: 'chat-1', credentials: { outboundConnectedAt: '2030-01-01', whatsNextCompletedAt: '2030-01-01' }, configurations: {} });
    expect(integration.result.identifier).toBe('chat-1');
    const schedule = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
    const prefs = await novu.subscribers.preferences.update({ workflowId: 'second', channels: { email: false, tool: true } }, 'alice');
    expect(prefs.result.workflows.find((w) => w.workflow.identifier === 'second')!.channels.email).toBe(false);
    // The schedule is a global preference: it is set without a workflowId (with one it is a 422 naming it).
    const global = await novu.subscribers.preferences.update({ schedule }, 'alice');
    expect(global.result.global.schedule).toMatchObject(schedule);
  });
});

describe('POST /v1/subscribers/bulk reads each item as POST /v2/subscribers does', () => {
  it('reports bad items in failed with the field named and stores only the valid ones', async () => {
    const bad = [
      { subscriberId: 'b-data-string', data: 'notobj' },
      { subscriberId: 'b-data-array', data: [1, 2] },
      { subscriberId: 'b-data-number', data: 7 },
      { subscriberId: 'b-channels-string', channels: 'x' },
      { subscriberId: 'b-channels-pigeon', channels: [{ providerId: 'carrier-pigeon', credentials: 'x' }] },
      { subscriberId: 'b-timezone', timezone: { a: 1 } },
      { subscriberId: 'b-typo', fristName: 'x' },
    ];
    const res = await send('POST', '/v1/subscribers/bulk', { subscribers: [{ subscriberId: 'b-good', data: { plan: 'pro' } }, ...bad] });
    expect(res.status).toBe(201);
    const { data } = (await res.json()) as { data: { created: unknown[]; failed: Array<{ subscriberId: string; message: string }> } };
    expect(data.created).toEqual([{ subscriberId: 'b-good' }]);
    const fieldOf = (id: string) => id.split('-')[1].replace('typo', 'fristName');
    expect(data.failed.map((f) => f.subscriberId)).toEqual(bad.map((b) => b.subscriberId));
    for (const failure of data.failed) expect(failure.message).toMatch(new RegExp(`^${fieldOf(failure.subscriberId)}: `));
    for (const { subscriberId } of bad) expect((await svc.request(`/v2/subscribers/${subscriberId}`)).status).toBe(404);
    expect((await read('/v2/subscribers/b-good')).data.data).toEqual({ plan: 'pro' });
  });
});
