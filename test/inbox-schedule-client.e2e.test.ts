import { createHmac } from 'node:crypto';
import { Novu } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';

// Issue 44 acceptance with the official `@novu/js` 3.19 client in Node: the delivery schedule read
// and updated (once a 422 "channels.schedule: is not a channel type"), topic subscriptions from the
// Inbox, unseen_count_changed over the socket, chat endpoints and connections of the subscriber.
let svc: TestService;
let applicationIdentifier: string;

const workflow = (workflowId: string, tags: string[]) => ({
  name: workflowId,
  workflowId,
  tags,
  steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: `${workflowId} {{payload.n}}` } }],
});

const WEEK = {
  monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] },
  saturday: { isEnabled: false },
};

function client(subscriberId: string, extra: Record<string, unknown> = {}): Novu {
  return new Novu({ applicationIdentifier, subscriberId, apiUrl: svc.url, socketUrl: svc.url, useCache: false, ...extra } as ConstructorParameters<typeof Novu>[0]);
}

const trigger = async (name: string, to: unknown, n: number) => {
  const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name, to, payload: { n } } });
  expect(res.status).toBe(201);
};

/** A session token for raw calls the client makes the same way. */
async function token(subscriberId: string): Promise<string> {
  const res = await fetch(`${svc.url}/v1/inbox/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ applicationIdentifier, subscriber: { subscriberId } }) });
  return (await res.json()).data.token;
}

beforeAll(async () => {
  svc = await startService();
  applicationIdentifier = (await (await svc.request('/v1/environments/me')).json()).data.identifier;
  for (const w of [workflow('news', ['digest']), workflow('alerts', ['ops'])]) expect((await svc.request('/v2/workflows', { method: 'POST', json: w })).status).toBe(201);
});
afterAll(() => svc?.dispose());

describe('the delivery schedule from the Inbox', () => {
  it('reads and updates it with useSchedule’s calls; the subscriber API sees the same', async () => {
    const novu = client('sched-1');
    const before = await novu.preferences.schedule.get();
    expect(before.error).toBeUndefined();
    expect(before.data?.isEnabled).toBeUndefined();
    const updated = await novu.preferences.schedule.update({ isEnabled: true, weeklySchedule: WEEK });
    expect(updated.error).toBeUndefined();
    expect(updated.data).toMatchObject({ isEnabled: true, weeklySchedule: WEEK });

    const reread = await client('sched-1').preferences.schedule.get();
    expect(reread.data).toMatchObject({ isEnabled: true, weeklySchedule: WEEK });
    const [global] = (await client('sched-1').preferences.list()).data!;
    expect(global.schedule).toMatchObject({ isEnabled: true, weeklySchedule: WEEK });
    const api = await (await svc.request('/v2/subscribers/sched-1/preferences')).json();
    expect(api.data.global.schedule).toEqual({ isEnabled: true, weeklySchedule: WEEK });

    // Switching it off keeps the week for later, as the Inbox's toggle does.
    const off = await reread.data!.update({ isEnabled: false });
    expect(off.data).toMatchObject({ isEnabled: false, weeklySchedule: WEEK });
  });

  it('refuses an invalid range naming the field', async () => {
    const res = await fetch(`${svc.url}/v1/inbox/preferences`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${await token('sched-2')}` },
      body: JSON.stringify({ schedule: { isEnabled: true, weeklySchedule: { friday: { isEnabled: true, hours: [{ start: '9 o’clock', end: '05:00 PM' }] } } } }),
    });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).errors)).toEqual(['schedule.weeklySchedule.friday.hours[0].start']);
  });

  it('the session’s defaultSchedule becomes a new subscriber’s schedule, never overwriting their own; only a verified session sets it', async () => {
    const defaultSchedule = { weeklySchedule: { tuesday: { isEnabled: true, hours: [{ start: '08:00 AM', end: '12:00 PM' }] } } };
    const subscriberHash = createHmac('sha256', svc.apiKey).update('sched-3').digest('hex');
    // Without the subscriber's HMAC, anyone with the public identifier could choose when someone is reached.
    expect((await client('sched-3', { defaultSchedule }).preferences.schedule.get()).data?.isEnabled).toBeUndefined();
    const first = await client('sched-3', { defaultSchedule, subscriberHash }).preferences.schedule.get();
    expect(first.data).toMatchObject({ isEnabled: true, weeklySchedule: defaultSchedule.weeklySchedule });
    await client('sched-3').preferences.schedule.update({ isEnabled: true, weeklySchedule: WEEK });
    const again = await client('sched-3', { defaultSchedule, subscriberHash }).preferences.schedule.get();
    expect(again.data?.weeklySchedule).toMatchObject(WEEK);
  });
});

describe('topic subscriptions from the Inbox', () => {
  it('subscribes, lists, narrows a workflow, receives through the topic, and unsubscribes', async () => {
    const novu = client('topic-1');
    const created = await novu.subscriptions.create({ topicKey: 'releases', topicName: 'Releases', preferences: ['news', { workflowId: 'alerts', enabled: true }] });
    expect(created.error).toBeUndefined();
    const subscription = created.data!;
    expect(subscription.identifier).toBe('tk_releases:si_topic-1');
    expect(subscription.preferences?.map((p) => [p.workflow.identifier, p.enabled]).sort()).toEqual([['alerts', true], ['news', true]]);

    const listed = await novu.subscriptions.list({ topicKey: 'releases' });
    expect(listed.data?.map((s) => s.identifier)).toEqual([subscription.identifier]);
    const got = await novu.subscriptions.get({ topicKey: 'releases', workflowIds: ['news'] });
    expect(got.data?.preferences?.map((p) => p.workflow.identifier)).toEqual(['news']);
    expect((await client('someone-else').subscriptions.get({ topicKey: 'releases', identifier: subscription.identifier })).data).toBeNull();

    const off = await subscription.updatePreference({ workflowId: 'alerts', value: false });
    expect(off.error).toBeUndefined();
    expect(off.data).toMatchObject({ enabled: false, workflow: { identifier: 'alerts' } });
    const alerts = subscription.preferences!.find((p) => p.workflow.identifier === 'alerts')!;
    const onAgain = await alerts.update({ value: true });
    expect(onAgain.data?.enabled).toBe(true);
    await subscription.updatePreference({ workflowId: 'alerts', value: false });

    await trigger('news', { type: 'Topic', topicKey: 'releases' }, 1);
    await trigger('alerts', { type: 'Topic', topicKey: 'releases' }, 2);
    const bodies = await waitFor(async () => {
      const { data } = await novu.notifications.list();
      return data?.notifications.length ? data.notifications.map((n) => n.body) : null;
    });
    // Given time for the alert to arrive, were it not switched off.
    await new Promise((r) => setTimeout(r, 1_000));
    expect((await novu.notifications.list()).data?.notifications.map((n) => n.body)).toEqual(bodies);
    expect(bodies).toEqual(['news 1']);

    expect((await subscription.delete()).error).toBeUndefined();
    expect((await novu.subscriptions.list({ topicKey: 'releases' })).data).toEqual([]);
  });
});

describe('live counts and the seen routes', () => {
  it('pushes unseen_count_changed with unread_count_changed; PATCH .../seen and POST .../seen mark seen', async () => {
    const novu = client('live-1');
    const connected = new Promise<void>((resolve, reject) => novu.on('socket.connect.resolved', ({ error }) => (error ? reject(error as Error) : resolve())));
    const unseen: number[] = [];
    const unread: number[] = [];
    novu.on('notifications.unseen_count_changed', ({ result }) => unseen.push(result));
    novu.on('notifications.unread_count_changed', ({ result }) => unread.push(result.total));
    await connected;
    await trigger('news', 'live-1', 1);
    await trigger('news', 'live-1', 2);
    await waitFor(async () => unseen.at(-1) === 2 && unread.at(-1) === 2);

    const [newest, older] = (await novu.notifications.list()).data!.notifications;
    const patched = await fetch(`${svc.url}/v1/inbox/notifications/${newest.id}/seen`, { method: 'PATCH', headers: { authorization: `Bearer ${await token('live-1')}` } });
    expect(patched.status).toBe(200);
    expect((await patched.json()).data).toMatchObject({ id: newest.id, isSeen: true, isRead: false });
    await waitFor(async () => unseen.at(-1) === 1);
    expect((await older.seen()).error).toBeUndefined();
    await waitFor(async () => unseen.at(-1) === 0);
    expect(unread.at(-1)).toBe(2);
    await novu.socket.disconnect();
  });
});

describe('chat endpoints and connections from the Inbox', () => {
  it("creates, lists, reads and deletes the subscriber's own; another subscriber's are not found; tokens stay on the server", async () => {
    expect((await svc.request('/v1/integrations', { method: 'POST', json: { providerId: 'slack', channel: 'chat', identifier: 'slack-main', name: 'Slack', credentials: {}, active: true } })).status).toBe(201);
    const novu = client('chat-1');
    const endpoint = await novu.channelEndpoints.create({ integrationIdentifier: 'slack-main', subscriberId: 'chat-1', type: 'slack_user', endpoint: { userId: 'U123' } });
    expect(endpoint.error).toBeUndefined();
    expect(endpoint.data).toMatchObject({ type: 'slack_user' });
    const listed = await novu.channelEndpoints.list({ integrationIdentifier: 'slack-main' });
    expect(listed.data?.map((e) => e.identifier)).toEqual([endpoint.data!.identifier]);
    expect((await client('chat-2').channelEndpoints.list()).data).toEqual([]);
    expect((await client('chat-2').channelEndpoints.get({ identifier: endpoint.data!.identifier })).data).toBeFalsy();

    const bearer = { 'content-type': 'application/json', authorization: `Bearer ${await token('chat-1')}` };
    const connection = await fetch(`${svc.url}/v1/inbox/channel-connections`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ integrationIdentifier: 'slack-main', workspace: { id: 'T1', name: 'Acme' }, auth: { accessToken: 'xoxb-secret' } }),
    });
    expect(connection.status).toBe(201);
    const created = (await connection.json()).data;
    expect(JSON.stringify(created)).not.toContain('xoxb-secret');
    const connections = await novu.channelConnections.list();
    expect(connections.data?.map((c) => c.identifier)).toEqual([created.identifier]);
    expect(JSON.stringify(connections.data)).not.toContain('xoxb-secret');
    expect((await client('chat-2').channelConnections.list()).data).toEqual([]);
    const forOther = await fetch(`${svc.url}/v1/inbox/channel-endpoints`, {
      method: 'POST',
      headers: bearer,
      body: JSON.stringify({ integrationIdentifier: 'slack-main', subscriberId: 'chat-2', type: 'slack_user', endpoint: { userId: 'U9' } }),
    });
    expect(forOther.status).toBe(403);
    const oauth = await novu.channelConnections.generateConnectOAuthUrl({ integrationIdentifier: 'slack-main' });
    expect((oauth.error?.originalError as { status?: number } | undefined)?.status ?? (oauth.error as unknown as { cause?: { status?: number } })?.cause?.status).toBe(400);

    expect((await novu.channelConnections.delete({ identifier: created.identifier })).error).toBeUndefined();
    expect((await novu.channelEndpoints.delete({ identifier: endpoint.data!.identifier })).error).toBeUndefined();
    expect((await novu.channelEndpoints.list()).data).toEqual([]);
  });
});

describe('every path @novu/js 3.19 calls', () => {
  // From the client's InboxService: none may fall through to the API-key routes (a 401 "ApiKey").
  const CALLS: Array<[string, string, unknown?]> = [
    ['GET', '/v1/inbox/notifications'],
    ['GET', '/v1/inbox/notifications/count?filters=[{}]'],
    ...['read', 'unread', 'seen', 'archive', 'unarchive', 'unsnooze'].map((s): [string, string] => ['PATCH', `/v1/inbox/notifications/n-1/${s}`]),
    ['PATCH', '/v1/inbox/notifications/n-1/snooze', { snoozeUntil: new Date(Date.now() + 60_000).toISOString() }],
    ['PATCH', '/v1/inbox/notifications/n-1/complete', { actionType: 'primary' }],
    ['PATCH', '/v1/inbox/notifications/n-1/revert', { actionType: 'primary' }],
    ['DELETE', '/v1/inbox/notifications/n-1/delete'],
    ...['read', 'archive', 'read-archive', 'delete', 'seen'].map((s): [string, string, unknown] => ['POST', `/v1/inbox/notifications/${s}`, {}]),
    ['GET', '/v1/inbox/preferences'],
    ['GET', '/v1/inbox/preferences/global'],
    ['PATCH', '/v1/inbox/preferences', { email: true }],
    ['PATCH', '/v1/inbox/preferences/bulk', { preferences: [{ workflowId: 'news', email: true }] }],
    ['PATCH', '/v1/inbox/preferences/news', { email: true }],
    ['POST', '/v1/inbox/events', { name: 'hello-world', to: { subscriberId: 'x' }, payload: {} }],
    ['GET', '/v1/inbox/topics/t/subscriptions'],
    ['GET', '/v1/inbox/topics/t/subscriptions/s'],
    ['POST', '/v1/inbox/topics/t/subscriptions', { identifier: '' }],
    ['PATCH', '/v1/inbox/topics/t/subscriptions/nope', { name: 'x' }],
    ['DELETE', '/v1/inbox/topics/t/subscriptions/nope'],
    ['PATCH', '/v1/inbox/subscriptions/nope/preferences/news', { enabled: true }],
    ['POST', '/v1/inbox/chat/oauth', { integrationIdentifier: 'i' }],
    ['POST', '/v1/inbox/channel-connections/oauth', { integrationIdentifier: 'i' }],
    ['POST', '/v1/inbox/channel-endpoints/oauth', { integrationIdentifier: 'i' }],
    ['POST', '/v1/inbox/channel-endpoints/link', { integrationIdentifier: 'i' }],
    ['GET', '/v1/inbox/channel-connections'],
    ['GET', '/v1/inbox/channel-connections/c'],
    ['POST', '/v1/inbox/channel-connections', { integrationIdentifier: 'i', workspace: { id: 'w' }, auth: { accessToken: 't' } }],
    ['DELETE', '/v1/inbox/channel-connections/c'],
    ['GET', '/v1/inbox/channel-endpoints'],
    ['GET', '/v1/inbox/channel-endpoints/e'],
    ['POST', '/v1/inbox/channel-endpoints', { integrationIdentifier: 'i', subscriberId: 'paths-1', type: 'slack_user', endpoint: { userId: 'U' } }],
    ['DELETE', '/v1/inbox/channel-endpoints/e'],
  ];

  it('is served by the Inbox with the session token', async () => {
    const authorization = `Bearer ${await token('paths-1')}`;
    const fallen: string[] = [];
    for (const [method, path, body] of CALLS) {
      const res = await fetch(`${svc.url}${path}`, { method, headers: { authorization, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      const text = await res.text();
      if (res.status === 401 || res.status >= 500 || /ApiKey/.test(text)) fallen.push(`${method} ${path}: ${res.status} ${text.slice(0, 120)}`);
    }
    expect(fallen).toEqual([]);
  });
});
