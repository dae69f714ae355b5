import { Novu } from '@novu/js';
import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';

let svc: TestService;
let applicationIdentifier: string;

const WORKFLOW = {
  name: 'Order shipped',
  workflowId: 'order-shipped',
  tags: ['orders'],
  steps: [
    {
      name: 'Inbox',
      type: 'in_app',
      controlValues: {
        subject: 'Hi {{subscriber.firstName}}',
        body: 'Order {{payload.orderId}} shipped',
        primaryAction: { label: 'Track', redirect: { url: 'https://example.com/track' } },
      },
    },
  ],
};

async function trigger(to: string, orderId: string): Promise<void> {
  const response = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'order-shipped', to, payload: { orderId } } });
  expect(response.status).toBe(201);
}

/** The official browser client, in Node, pointed at this Herald for both HTTP and its socket (no cache: every call asks). */
function client(subscriberId: string): Novu {
  return new Novu({ applicationIdentifier, subscriberId, apiUrl: svc.url, socketUrl: svc.url, useCache: false });
}

async function inboxOf(novu: Novu) {
  const { data, error } = await novu.notifications.list({ limit: 20 });
  if (error) throw error;
  return data!.notifications;
}

beforeAll(async () => {
  svc = await startService();
  const me = await (await svc.request('/v1/environments/me')).json();
  applicationIdentifier = me.data.identifier;
  expect(applicationIdentifier).toMatch(/^pk_/);
  expect((await svc.request('/v2/workflows', { method: 'POST', json: WORKFLOW })).status).toBe(201);
});
afterAll(() => svc?.dispose());

describe('@novu/js 3.19 against Herald', () => {
  it('starts a session (creating the subscriber), lists, counts and changes notifications', async () => {
    const novu = client('ada');
    expect(await inboxOf(novu)).toEqual([]);
    await trigger('ada', '1');
    await trigger('ada', '2');
    const listed = await waitFor(async () => {
      const n = await inboxOf(novu);
      return n.length === 2 ? n : null;
    }, 10_000);
    expect(listed.map((n) => n.body)).toEqual(['Order 2 shipped', 'Order 1 shipped']);
    expect(listed[0]).toMatchObject({ isRead: false, isArchived: false, primaryAction: { label: 'Track', isCompleted: false } });

    const counted = await novu.notifications.count({ filters: [{ read: false }, { read: true }, { archived: true }] });
    expect(counted.data?.counts.map((c) => c.count)).toEqual([2, 0, 0]);

    const [newest, oldest] = listed;
    expect((await newest.read()).data).toMatchObject({ id: newest.id, isRead: true });
    expect((await oldest.archive()).data).toMatchObject({ isArchived: true });
    const snoozeUntil = new Date(Date.now() + 3_600_000).toISOString();
    expect((await novu.notifications.snooze({ notificationId: newest.id, snoozeUntil })).data).toMatchObject({ isSnoozed: true });
    expect((await novu.notifications.unsnooze({ notificationId: newest.id })).data).toMatchObject({ isSnoozed: false });
    expect((await newest.completePrimary()).data?.primaryAction).toMatchObject({ isCompleted: true });
    expect((await newest.unread()).data).toMatchObject({ isRead: false });

    const after = await novu.notifications.count({ filters: [{ read: false, archived: false }, { archived: true }] });
    expect(after.data?.counts.map((c) => c.count)).toEqual([1, 1]);
    const archived = await novu.notifications.list({ archived: true });
    expect(archived.data?.notifications.map((n) => n.id)).toEqual([oldest.id]);

    await novu.notifications.readAll();
    expect((await novu.notifications.count({ filters: [{ read: false }] })).data?.counts[0].count).toBe(0);
  });

  it('reads and updates global and per-workflow preferences', async () => {
    const novu = client('bob');
    const { data: preferences } = await novu.preferences.list();
    expect(preferences?.map((p) => p.level)).toEqual(['global', 'template']);
    const workflow = preferences![1];
    expect(workflow.workflow).toMatchObject({ identifier: 'order-shipped', name: 'Order shipped' });
    const updated = await workflow.update({ channels: { in_app: false } });
    expect(updated.error).toBeUndefined();
    expect(updated.data?.channels.in_app).toBe(false);
    const global = await preferences![0].update({ channels: { email: false } });
    expect(global.data).toMatchObject({ level: 'global', channels: { email: false } });

    const reread = await client('bob').preferences.list();
    expect(reread.data?.[1].channels.in_app).toBe(false);
    expect(reread.data?.[0].channels.email).toBe(false);
  });

  it('hears a new notification and the unread count live, within 1 s of the trigger', async () => {
    const novu = client('cleo');
    const connected = new Promise<void>((resolve, reject) =>
      novu.on('socket.connect.resolved', ({ error }) => (error ? reject(error as Error) : resolve())),
    );
    const received = new Promise<{ body: string; at: number }>((resolve) =>
      novu.on('notifications.notification_received', ({ result }) => resolve({ body: result.body, at: Date.now() })),
    );
    const unread = new Promise<{ total: number }>((resolve) => novu.on('notifications.unread_count_changed', ({ result }) => resolve(result)));
    await connected;
    const triggeredAt = Date.now();
    await trigger('cleo', '7');
    const heard = await received;
    expect(heard.body).toBe('Order 7 shipped');
    expect(heard.at - triggeredAt).toBeLessThan(1_000);
    expect(await unread).toMatchObject({ total: 1, severity: { none: 1 } });

    // A change made through the inbox API is pushed too.
    const counts: number[] = [];
    novu.on('notifications.unread_count_changed', ({ result }) => counts.push(result.total));
    const [notification] = await inboxOf(novu);
    await notification.read();
    await waitFor(async () => counts.includes(0), 5_000);
    await novu.socket.disconnect();
  });

  it('hears what another Herald process on the same database delivered (LISTEN/NOTIFY)', async () => {
    // An API-only process holds the socket; the test service's workers deliver.
    const apiOnly = await svc.startPeer({ HERALD_WORKERS: 'false' });
    try {
      const novu = new Novu({ applicationIdentifier, subscriberId: 'dora', apiUrl: apiOnly.url, socketUrl: apiOnly.url, useCache: false });
      const connected = new Promise<void>((resolve, reject) => novu.on('socket.connect.resolved', ({ error }) => (error ? reject(error as Error) : resolve())));
      const received = new Promise<string>((resolve) => novu.on('notifications.notification_received', ({ result }) => resolve(result.body)));
      await connected;
      await trigger('dora', '8');
      expect(await received).toBe('Order 8 shipped');
      await novu.socket.disconnect();
    } finally {
      await apiOnly.stop();
    }
  });

  it('refuses a socket without a valid subscriber token', async () => {
    const socket = io(svc.url, { transports: ['websocket'], query: { token: 'forged.token' }, reconnection: false });
    const error = await new Promise<Error>((resolve) => socket.on('connect_error', resolve));
    expect(error.message).toMatch(/not valid/);
    socket.close();
  });

  it('refuses a session for an unknown application identifier', async () => {
    const response = await fetch(`${svc.url}/v1/inbox/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ applicationIdentifier: 'pk_nope', subscriber: { subscriberId: 'ada' } }),
    });
    expect(response.status).toBe(422);
    expect((await response.json()).message).toMatch(/applicationIdentifier/);
  });
});
