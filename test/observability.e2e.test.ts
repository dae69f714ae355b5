import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parsePrometheus, total, type Sample } from './support/prometheus';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// Metrics, logs and health as an operator sees them, against a webhook receiver that always fails.
let svc: TestService;
let receiver: Server;
let failures = 0;

async function scrape(service: TestService | string): Promise<Sample[]> {
  const res = await fetch(typeof service === 'string' ? service : `${service.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
  return parsePrometheus(await res.text());
}

async function finished(service: TestService, transactionId: string) {
  const rows = await queryDatabase<{ status: string }>(
    service.databaseUrl,
    'SELECT j.status FROM jobs j JOIN notifications n ON n.id = j.notification_id WHERE n.transaction_id = $1',
    [transactionId],
  );
  return rows.length && rows.every((r) => ['completed', 'skipped', 'failed', 'canceled'].includes(r.status)) ? rows : null;
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      failures++;
      res.writeHead(500).end('down');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  // Two sends in all (a retry after 200 ms where retries wait): the step fails within the test.
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_METRICS: 'true', HERALD_RETRY_POLICY: '{"maxAttempts":2,"initialDelayMs":200,"jitter":0}' });
});
afterAll(async () => {
  await svc?.dispose();
  receiver?.close();
});

describe('GET /metrics', () => {
  it('counts the trigger, each delivery, the failed provider attempts and the failed step; the queue empties', async () => {
    // The email channel has only the failing webhook: the development sink is switched off.
    const { data: integrations } = await (await svc.request('/v1/integrations')).json();
    const sink = integrations.find((i: { providerId: string }) => i.providerId === 'herald-email');
    expect((await svc.request(`/v1/integrations/${sink._id}`, { method: 'PUT', json: { active: false } })).status).toBe(200);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    const created = await svc.request('/v1/integrations', {
      method: 'POST',
      json: { providerId: 'email-webhook', channel: 'email', name: 'Hook', identifier: 'hook', credentials: { webhookUrl: url }, active: true },
    });
    expect(created.status).toBe(201);
    await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'ops-1', email: 'ops@example.com' } });
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'ops-alert' }, [
      { type: 'in_app', stepId: 'inbox', controlValues: { body: 'Disk full' } },
      { type: 'email', stepId: 'mail', controlValues: { subject: 'Alert', body: 'Disk full' } },
    ]);

    const before = await scrape(svc);
    const trigger = (json: unknown) => svc.request('/v1/events/trigger', { method: 'POST', json });
    expect((await trigger({ name: 'ops-alert', to: 'ops-1', transactionId: 'tx-ops' })).status).toBe(201);
    await waitFor(() => finished(svc, 'tx-ops'));
    expect((await (await trigger({ name: 'ops-alert', to: 'ops-1', transactionId: 'tx-ops' })).json()).data.acknowledged).toBe(false);
    expect((await trigger({ name: 'no-such-workflow', to: 'ops-1' })).status).toBe(422);
    const after = await scrape(svc);

    const delta = (name: string, where: Record<string, string> = {}) => total(after, name, where) - total(before, name, where);
    expect(delta('herald_triggers_total', { outcome: 'accepted' })).toBe(1);
    expect(delta('herald_triggers_total', { outcome: 'deduplicated' })).toBe(1);
    expect(delta('herald_triggers_total', { outcome: 'rejected', reason: 'validation_failed' })).toBe(1);
    expect(delta('herald_deliveries_total', { channel: 'in_app', outcome: 'sent' })).toBe(1);
    expect(delta('herald_deliveries_total', { channel: 'email', provider: 'email-webhook', outcome: 'retried' })).toBe(1);
    expect(delta('herald_deliveries_total', { channel: 'email', provider: 'email-webhook', outcome: 'failed' })).toBe(1);
    expect(delta('herald_deliveries_total', { channel: 'email', outcome: 'sent' })).toBe(0);
    expect(delta('herald_steps_total', { type: 'email', status: 'failed' })).toBe(1);
    expect(delta('herald_provider_call_duration_seconds_count', { provider: 'email-webhook', result: 'error' })).toBe(2);
    expect(failures).toBe(2);
    expect(delta('herald_http_request_duration_seconds_count', { route: '/v1/events/trigger', method: 'POST', status_class: '2xx' })).toBe(2);
    expect(total(after, 'herald_steps_due')).toBe(0);
    expect(total(after, 'herald_delivery_lag_seconds')).toBe(0);
    expect(total(after, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    // No unbounded labels: no transaction or subscriber id anywhere in the scrape.
    expect(after.some((s) => Object.values(s.labels).some((v) => /tx-ops|ops-1/.test(v)))).toBe(false);

    // A structured warn line per failed provider attempt and one for the failed step.
    const lines = svc.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
    const attempts = lines.filter((l) => l.msg === 'provider attempt failed');
    expect(attempts).toHaveLength(2);
    expect(attempts[0]).toMatchObject({ level: 40, transactionId: 'tx-ops', subscriberId: 'ops-1', workflow: 'ops-alert', step: 'mail', provider: 'email-webhook' });
    expect(attempts[0].reason).toMatch(/500/);
    const failedSteps = lines.filter((l) => l.msg === 'step failed');
    expect(failedSteps).toEqual([expect.objectContaining({ level: 40, transactionId: 'tx-ops', step: 'mail', provider: 'email-webhook' })]);
  });

  it('counts idempotent replays; health checks, scrapes and accepted triggers are not logged at info', async () => {
    const before = await scrape(svc);
    const create = () => svc.request('/v2/subscribers', { method: 'POST', headers: { 'idempotency-key': 'ops-key' }, json: { subscriberId: 'ops-2' } });
    expect((await create()).status).toBe(201);
    expect((await create()).headers.get('idempotency-replay')).toBe('true');
    expect((await fetch(`${svc.url}/v1/health-check`)).status).toBe(200);
    const after = await scrape(svc);
    expect(total(after, 'herald_idempotency_requests_total', { outcome: 'replayed' }) - total(before, 'herald_idempotency_requests_total', { outcome: 'replayed' })).toBe(1);
    const requests = svc.output().split('\n').filter((l) => l.includes('"msg":"request"'));
    expect(requests.some((l) => l.includes('"path":"/v2/subscribers"'))).toBe(true);
    expect(requests.filter((l) => /"path":"(\/metrics|\/v1\/health-check|\/v1\/events\/trigger)"/.test(l))).toEqual([
      // Only the trigger refused with a 4xx (unknown workflow) is worth an info line.
      expect.stringContaining('"status":422'),
    ]);
  });
});

describe('delivery lag and readiness', () => {
  it('an API-only process shows due steps aging, and readiness fails once the lag passes its threshold', async () => {
    // Metrics on a port of their own: not on the API port.
    const free = createServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', r));
    const metricsPort = (free.address() as AddressInfo).port;
    await new Promise((r) => free.close(r));
    const api = await startService({ HERALD_WORKERS: 'false', HERALD_METRICS: String(metricsPort), HERALD_READY_MAX_LAG_SECONDS: '1' });
    const metricsUrl = `http://127.0.0.1:${metricsPort}/metrics`;
    try {
      expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
      const ready = await fetch(`${api.url}/v1/health-check/ready`);
      expect(ready.status).toBe(200);
      expect((await ready.json()).data).toMatchObject({ status: 'ready', database: 'up', migrations: { pending: [] }, delivery: { dueSteps: 0, lagSeconds: 0, maxLagSeconds: 1 } });
      const before = await scrape(metricsUrl);
      expect(total(before, 'herald_steps_due')).toBe(0);
      await insertWorkflowWithSteps(api.databaseUrl, { workflowId: 'queued' }, [{ type: 'in_app', controlValues: { body: 'waiting' } }]);
      expect((await api.request('/v1/events/trigger', { method: 'POST', json: { name: 'queued', to: ['a', 'b'] } })).status).toBe(201);
      await new Promise((r) => setTimeout(r, 1_300));
      const after = await scrape(metricsUrl);
      expect(total(after, 'herald_steps_due')).toBe(2);
      expect(total(after, 'herald_delivery_lag_seconds')).toBeGreaterThan(1);
      const late = await fetch(`${api.url}/v1/health-check/ready`);
      expect(late.status).toBe(503);
      const body = (await late.json()).data;
      expect(body).toMatchObject({ status: 'not_ready', database: 'up', delivery: { dueSteps: 2 } });
      expect(body.reasons).toEqual([expect.stringMatching(/^delivery lag [\d.]+ s is above 1 s$/)]);
      // Liveness is unaffected by lag.
      expect((await fetch(`${api.url}/v1/health-check`)).status).toBe(200);
    } finally {
      await api.dispose();
    }
    // It starts a service of its own: allow for a loaded machine.
  }, 120_000);
});
