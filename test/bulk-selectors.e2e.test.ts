import { Novu } from '@novu/api';
import { Novu as InboxClient } from '@novu/js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';

// Issue 39: a bulk action selects exactly what its body says. An empty selection means "all" only in
// the form an official client sends for it; every other empty, unreadable or misspelt selector is a
// 422 and changes nothing, counted before and after on both the API-key and the subscriber routes.
let svc: TestService;
let novu: Novu;
let applicationIdentifier: string;

const WORKFLOWS = [
  { workflowId: 'invoice', tags: ['billing'] },
  { workflowId: 'newsletter', tags: ['news'] },
  { workflowId: 'digest', tags: ['billing', 'news'] },
  { workflowId: 'plain', tags: [] },
];

/** A subscriber with one notification of each workflow (4 in all), delivered before it returns. */
async function subscriberWithInbox(subscriberId: string): Promise<void> {
  for (const { workflowId } of WORKFLOWS) {
    const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: workflowId, to: subscriberId, payload: {} } });
    expect(res.status).toBe(201);
  }
  await waitFor(async () => (await inbox(subscriberId)).length === WORKFLOWS.length, 15_000);
}

/** The subscriber's notifications as the API lists them: workflow identifier, read, archived. */
async function inbox(subscriberId: string): Promise<Array<{ workflow: string; isRead: boolean; isArchived: boolean; isSeen: boolean }>> {
  const res = await svc.request(`/v2/subscribers/${subscriberId}/notifications?limit=100`);
  const body = (await res.json()) as { data: Array<{ workflow: { identifier: string }; isRead: boolean; isArchived: boolean; isSeen: boolean }> };
  return body.data.map((n) => ({ workflow: n.workflow.identifier, isRead: n.isRead, isArchived: n.isArchived, isSeen: n.isSeen })).sort((a, b) => a.workflow.localeCompare(b.workflow));
}

const workflows = async (subscriberId: string) => (await inbox(subscriberId)).map((n) => n.workflow);

/** A subscriber token from the browser session route, as @novu/js gets one. */
async function sessionToken(subscriberId: string): Promise<string> {
  const res = await fetch(`${svc.url}/v1/inbox/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ applicationIdentifier, subscriber: { subscriberId } }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { data: { token: string } }).data.token;
}

const asSubscriber = (token: string, path: string, body: unknown) =>
  fetch(`${svc.url}/v1/inbox/notifications/${path}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

const asApiKey = (subscriberId: string, path: string, body: unknown) => svc.request(`/v2/subscribers/${subscriberId}/notifications/${path}`, { method: 'POST', json: body });

// The bodies that widened to everything, and misspelt selectors.
const REFUSED_EVERYWHERE = [
  { tags: {} },
  { tags: { or: [] } },
  { tags: { and: [] } },
  { tags: { and: [{ or: [] }] } },
  { data: '{}' },
  { notificationId: ['x'] },
  { ids: ['x'] },
  { notificationIds: [] },
  { tag: ['billing'] },
];

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  applicationIdentifier = ((await (await svc.request('/v1/environments/me')).json()) as { data: { identifier: string } }).data.identifier;
  for (const { workflowId, tags } of WORKFLOWS) {
    const steps = [{ name: 'Inbox', type: 'in_app', controlValues: { body: `${workflowId} body` } }];
    expect((await svc.request('/v2/workflows', { method: 'POST', json: { name: workflowId, workflowId, tags, steps } })).status).toBe(201);
  }
});
afterAll(() => svc?.dispose());

describe('bulk actions with an API key (/v2/subscribers/{id}/notifications/...)', () => {
  it('refuses every empty or unreadable selector with a 422 naming the field, and deletes nothing', async () => {
    await subscriberWithInbox('api-refused');
    for (const body of [...REFUSED_EVERYWHERE, { tags: [] }, { data: {} }]) {
      for (const path of ['delete', 'read', 'archive', 'read-archive', 'seen']) {
        const res = await asApiKey('api-refused', path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(422);
        const error = (await res.json()) as { code: string; errors: Record<string, unknown> };
        expect(error.code).toBe('VALIDATION_FAILED');
        expect(Object.keys(error.errors).join(' '), JSON.stringify(body)).toMatch(new RegExp(Object.keys(body)[0]));
      }
    }
    expect(await inbox('api-refused')).toEqual(WORKFLOWS.map(({ workflowId }) => ({ workflow: workflowId, isRead: false, isArchived: false, isSeen: false })).sort((a, b) => a.workflow.localeCompare(b.workflow)));
  });

  it('deletes exactly what a tag filter names: {and: ["billing"]} only billing, {or: ["nomatch"]} nothing', async () => {
    await subscriberWithInbox('api-tags');
    expect(await workflows('api-tags')).toHaveLength(4);
    expect((await asApiKey('api-tags', 'delete', { tags: { or: ['nomatch'] } })).status).toBe(204);
    expect(await workflows('api-tags')).toEqual(['digest', 'invoice', 'newsletter', 'plain']);
    expect((await asApiKey('api-tags', 'delete', { tags: { and: [{ or: ['billing'] }, 'news'] } })).status).toBe(204);
    expect(await workflows('api-tags')).toEqual(['invoice', 'newsletter', 'plain']);
    expect((await asApiKey('api-tags', 'delete', { tags: { and: ['billing'] } })).status).toBe(204);
    expect(await workflows('api-tags')).toEqual(['newsletter', 'plain']);
    expect((await asApiKey('api-tags', 'read', { tags: ['news', 'nomatch'] })).status).toBe(204);
    expect((await inbox('api-tags')).map((n) => n.isRead)).toEqual([true, false]);
  });

  it('lists and counts by tag filters in every form', async () => {
    await subscriberWithInbox('api-filters');
    const listed = (await (await svc.request('/v2/subscribers/api-filters/notifications?tags=billing&tags=nomatch')).json()) as { data: Array<{ workflow: { identifier: string } }> };
    expect(listed.data.map((n) => n.workflow.identifier).sort()).toEqual(['digest', 'invoice']);
    const filters = [{ tags: { and: [{ or: ['billing'] }, 'news'] } }, { tags: ['news'] }, { tags: { or: ['nomatch'] } }, { tags: { or: [] } }];
    const counted = (await (await svc.request(`/v2/subscribers/api-filters/notifications/count?filters=${encodeURIComponent(JSON.stringify(filters))}`)).json()) as { data: Array<{ count: number }> };
    expect(counted.data.map((c) => c.count)).toEqual([1, 2, 0, 4]);
  });

  it('selects all only for {}, as @novu/api sends it; a tag filter @novu/api strips to {} is refused', async () => {
    await subscriberWithInbox('api-all');
    // @novu/api's schema keeps no key of `tags`: the filter below reaches the service as {"tags":{}}.
    await expect(novu.subscribers.notifications.deleteAll({ tags: { or: ['billing'] } as never }, 'api-all')).rejects.toMatchObject({ statusCode: 422 });
    expect(await workflows('api-all')).toHaveLength(4);
    await novu.subscribers.notifications.archiveAll({}, 'api-all');
    expect((await inbox('api-all')).every((n) => n.isArchived)).toBe(true);
    await novu.subscribers.notifications.deleteAll({}, 'api-all');
    expect(await workflows('api-all')).toEqual([]);
  });
});

describe('bulk actions of the browser Inbox (/v1/inbox/notifications/...)', () => {
  it('refuses every empty or unreadable selector with a 422, and changes nothing', async () => {
    await subscriberWithInbox('inbox-refused');
    const token = await sessionToken('inbox-refused');
    for (const body of [...REFUSED_EVERYWHERE, { data: {} }]) {
      for (const path of ['delete', 'read', 'archive', 'read-archive', 'seen']) {
        const res = await asSubscriber(token, path, body);
        expect(res.status, `${path} ${JSON.stringify(body)}`).toBe(422);
        expect(Object.keys(((await res.json()) as { errors: object }).errors).join(' ')).toMatch(new RegExp(Object.keys(body)[0]));
      }
    }
    // No official client sends tags: [] to delete or seen; only the Inbox's menu sends it (to read, archive, read-archive).
    for (const path of ['delete', 'seen']) expect((await asSubscriber(token, path, { tags: [] })).status).toBe(422);
    expect((await inbox('inbox-refused')).filter((n) => n.isRead || n.isArchived || n.isSeen)).toEqual([]);
    expect(await workflows('inbox-refused')).toHaveLength(4);
  });

  it('deletes and archives exactly what the tag filter names, in the forms @novu/js sends', async () => {
    await subscriberWithInbox('inbox-tags');
    const token = await sessionToken('inbox-tags');
    expect((await asSubscriber(token, 'delete', { tags: { or: ['nomatch'] } })).status).toBe(204);
    expect(await workflows('inbox-tags')).toHaveLength(4);
    expect((await asSubscriber(token, 'delete', { tags: { and: ['billing'] } })).status).toBe(204);
    expect(await workflows('inbox-tags')).toEqual(['newsletter', 'plain']);
    expect((await asSubscriber(token, 'archive', { tags: ['news'], data: JSON.stringify({ nomatch: 1 }) })).status).toBe(204);
    expect((await inbox('inbox-tags')).some((n) => n.isArchived)).toBe(false);
    expect((await asSubscriber(token, 'archive', { tags: ['news'] })).status).toBe(204);
    expect((await inbox('inbox-tags')).map((n) => [n.workflow, n.isArchived])).toEqual([['newsletter', true], ['plain', false]]);
  });

  it('through @novu/js: readAll, archiveAllRead and deleteAll with and without filters, listing and counting by tag groups', async () => {
    await subscriberWithInbox('js-client');
    const client = new InboxClient({ applicationIdentifier, subscriberId: 'js-client', apiUrl: svc.url, socketUrl: svc.url, useCache: false });
    const billingAndNews = { and: [{ or: ['billing'] }, { or: ['news'] }] };
    const listed = await client.notifications.list({ tags: billingAndNews });
    expect(listed.data?.notifications.map((n) => n.workflow?.identifier)).toEqual(['digest']);
    const counts = await client.notifications.count({ filters: [{ tags: billingAndNews }, { tags: ['billing', 'news'] }, { tags: { or: ['billing'] } }, {}] });
    expect(counts.data?.counts.map((c) => c.count)).toEqual([1, 3, 2, 4]);

    expect((await client.notifications.readAll({ tags: billingAndNews })).error).toBeUndefined();
    expect((await inbox('js-client')).filter((n) => n.isRead).map((n) => n.workflow)).toEqual(['digest']);
    expect((await client.notifications.archiveAllRead()).error).toBeUndefined();
    expect((await inbox('js-client')).filter((n) => n.isArchived).map((n) => n.workflow)).toEqual(['digest']);
    expect((await client.notifications.deleteAll({ tags: { or: ['billing'] } })).error).toBeUndefined();
    expect(await workflows('js-client')).toEqual(['newsletter', 'plain']);
    // The Inbox's own "Mark all as read" from a tab without tags sends {"tags":[]}.
    expect((await client.notifications.readAll({ tags: [] })).error).toBeUndefined();
    expect((await inbox('js-client')).every((n) => n.isRead)).toBe(true);
    expect((await client.notifications.deleteAll()).error).toBeUndefined();
    expect(await workflows('js-client')).toEqual([]);
  });
});
