import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpAdmin, type DashboardClient } from './support/dashboard';
import { startService, type TestService } from './support/service';

// GET /v1/overview over HTTP: counts of real triggers and deliveries, through an API key and a
// dashboard session alike, per environment, and kept across a restart.
let svc: TestService;
let admin: DashboardClient;

interface Bucket {
  start: string;
  triggers: number;
  deliveries: Array<{ channel: string; outcome: string; count: number }>;
  providerFailures: Array<{ providerId: string; channel: string; count: number }>;
  lag: { count: number; p50Ms: number | null; p95Ms: number | null };
  lagByChannel: Array<{ channel: string; count: number }>;
}
type Overview = { hourly: Bucket[]; daily: Bucket[] };

const overview = async (request: (path: string) => Promise<Response>): Promise<Overview> => ((await (await request('/v1/overview')).json()) as { data: Overview }).data;
const sum = (pairs: Array<[string, number]>) => pairs.reduce<Record<string, number>>((acc, [k, n]) => ({ ...acc, [k]: (acc[k] ?? 0) + n }), {});
// Summed over the buckets given: a test that runs across an hour boundary counts the same.
const sent = (...b: Bucket[]) => sum(b.flatMap((x) => x.deliveries.map((d): [string, number] => [`${d.channel} ${d.outcome}`, d.count])));
const failures = (...b: Bucket[]) => sum(b.flatMap((x) => x.providerFailures.map((f): [string, number] => [`${f.channel} ${f.providerId}`, f.count])));
const lagCounts = (...b: Bucket[]) => sum(b.flatMap((x) => x.lagByChannel.map((l): [string, number] => [l.channel, l.count])));
const triggers = (...b: Bucket[]) => b.reduce((n, x) => n + x.triggers, 0);

async function until(probe: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) {
      const activity = await (await svc.request('/v1/notifications?limit=3')).text();
      throw new Error(`overview never showed the counts: ${JSON.stringify((await overview((p) => svc.request(p))).hourly[23])}\n${activity}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

beforeAll(async () => {
  // One attempt per send: the broken SMTP integration fails its step at once.
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_RETRY_POLICY: JSON.stringify({ maxAttempts: 1 }) });
  admin = await setUpAdmin(svc);
  const workflow = { workflowId: 'welcome', name: 'Welcome', steps: [{ name: 'Inbox', type: 'in_app', controlValues: { body: 'Hi' } }, { name: 'Mail', type: 'email', controlValues: { subject: 'Hi', body: '<p>Hi</p>' } }] };
  expect((await svc.request('/v2/workflows', { method: 'POST', json: workflow })).status).toBe(201);
});
afterAll(() => svc?.dispose());

describe('GET /v1/overview', () => {
  it('counts triggers, deliveries by channel and outcome, provider failures and the lag of sends, within seconds', async () => {
    for (const id of ['a', 'b']) expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'welcome', to: { subscriberId: `user-${id}`, email: `${id}@example.com` } } })).status).toBe(201);
    await until(async () => sent(...(await overview((p) => svc.request(p))).hourly)['email sent'] === 2);

    // A real SMTP integration nobody answers at: it takes over from the development sink, and fails.
    const smtp = { providerId: 'nodemailer', name: 'Dead SMTP', identifier: 'dead-smtp', credentials: { host: '127.0.0.1', port: '9', from: 'shop@example.com' } };
    expect((await svc.request('/v1/integrations', { method: 'POST', json: smtp })).status).toBe(201);
    await new Promise((r) => setTimeout(r, 2_100));
    expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'welcome', to: { subscriberId: 'user-c', email: 'c@example.com' } } })).status).toBe(201);
    await until(async () => sent(...(await overview((p) => svc.request(p))).hourly)['email failed'] === 1);

    const { hourly, daily } = await overview((p) => svc.request(p));
    expect(hourly).toHaveLength(24);
    expect(daily).toHaveLength(7);
    expect(triggers(...hourly)).toBe(3);
    expect(sent(...hourly)).toEqual({ 'email failed': 1, 'email sent': 2, 'in_app sent': 3 });
    expect(failures(...hourly)).toEqual({ 'email nodemailer': 1 });
    expect(lagCounts(...hourly)).toEqual({ email: 2, in_app: 3 });
    expect(hourly[23].lag.p50Ms ?? hourly[22].lag.p50Ms).toBeGreaterThanOrEqual(0);
    expect(triggers(...hourly.slice(0, 22))).toBe(0);
    expect([triggers(...daily), sent(...daily), failures(...daily)]).toEqual([3, sent(...hourly), failures(...hourly)]);
  });

  it('a dashboard session reads the environment it switched to', async () => {
    const development = await overview((p) => admin.request(p));
    expect(triggers(...development.hourly)).toBe(3);
    const production = admin.me.environments.find((e) => e.slug === 'production')!.id;
    const other = await overview((p) => admin.request(p, { headers: { 'herald-environment': production } }));
    expect(other.hourly.every((b) => b.triggers === 0 && b.deliveries.length === 0)).toBe(true);
  });

  it('counts of the last seconds before a stop are kept', async () => {
    expect((await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'welcome', to: { subscriberId: 'user-d', email: 'd@example.com' } } })).status).toBe(201);
    expect(await svc.stop()).toBe(0);
    await svc.restart();
    expect(triggers(...(await overview((p) => svc.request(p))).hourly)).toBe(4);
  });
});
