import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardClient, invited, setUpAdmin, type DashboardClient } from './support/dashboard';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver';

// Issue 45: webhook endpoints managed through the dashboard-facing API, a dashboard session calling
// the same routes as an API key, under the dashboard's roles, CSRF check and environment switcher.
let svc: TestService;
let receiver: WebhookReceiver;
let admin: DashboardClient;
let viewer: DashboardClient;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  admin = await setUpAdmin(svc);
  viewer = await invited(svc, admin, 'vic@example.com', 'viewer');
});
afterAll(async () => {
  await svc?.dispose();
  await receiver?.close();
});

const endpoints = async (client: DashboardClient) => ((await (await client.request('/v1/webhooks/endpoints')).json()) as { data: Array<{ id: string; url: string }> }).data;

describe('webhook endpoints from a dashboard session', () => {
  it('an admin creates, rotates and deletes; a viewer only reads; another origin and another environment see nothing of it', async () => {
    const body = { url: receiver.url, description: 'CRM', eventTypes: ['subscriber.created'] };
    expect((await admin.request('/v1/webhooks/endpoints', { method: 'POST', json: body, headers: { origin: 'https://evil.example' } })).status).toBe(403);
    expect((await viewer.request('/v1/webhooks/endpoints', { method: 'POST', json: body })).status).toBe(403);
    expect(await endpoints(admin)).toEqual([]);

    const created = await admin.request('/v1/webhooks/endpoints', { method: 'POST', json: body });
    expect(created.status).toBe(201);
    const { id, secret } = ((await created.json()) as { data: { id: string; secret: string } }).data;
    receiver.secret = secret;
    expect((await endpoints(viewer)).map((e) => e.id)).toEqual([id]);
    expect(JSON.stringify(await endpoints(viewer))).not.toContain(secret);
    expect(await endpoints(dashboardClient(svc, admin.cookie, admin.me, 'production'))).toEqual([]);

    // The endpoint hears what the session changes, signed with the secret shown once.
    expect((await admin.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'from-dashboard' } })).status).toBe(201);
    const [event] = await waitFor(async () => (receiver.accepted.length ? receiver.accepted : null), 15_000);
    expect(event).toMatchObject({ type: 'subscriber.created', data: { subscriberId: 'from-dashboard' } });

    expect((await viewer.request(`/v1/webhooks/endpoints/${id}/secret/rotate`, { method: 'POST', json: {} })).status).toBe(403);
    const rotated = await admin.request(`/v1/webhooks/endpoints/${id}/secret/rotate`, { method: 'POST', json: { overlapSeconds: 60 } });
    expect(rotated.status).toBe(200);
    expect(((await rotated.json()) as { data: { secret: string } }).data.secret).not.toBe(secret);
    expect((await viewer.request(`/v1/webhooks/endpoints/${id}/attempts`)).status).toBe(200);
    expect((await viewer.request(`/v1/webhooks/endpoints/${id}`, { method: 'DELETE' })).status).toBe(403);
    expect((await admin.request(`/v1/webhooks/endpoints/${id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await endpoints(viewer)).toEqual([]);
  }, 60_000);
});
