import { Novu } from '@novu/api';
import { workflow } from '@novu/framework';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { novuSync, startBridge, type TestBridge } from './support/bridge';
import { broken, limited, optional, orderDigest, ping, reminder } from './support/code-workflows';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';
import { waitFor } from './support/wait';

// A team's bridge (the real @novu/framework serve handler) synced by the real `novu` CLI into Herald.
let svc: TestService;
let novu: Novu;
let bridge: TestBridge;
let smtp: SmtpFake;
const served = [orderDigest, ping, optional, reminder, broken, limited];

async function activity(transactionId: string) {
  const res = await svc.request(`/v1/notifications?transactionId=${encodeURIComponent(transactionId)}`);
  type Job = { type: string; status: string; digest?: { type: string; amount?: number; unit?: string; events?: unknown[] }; step: { stepId?: string } };
  return (await res.json()).data as Array<{ _id: string; jobs: Array<Job & { executionDetails: Array<{ status: string; detail: string; raw?: string | null; source: string }> }> }>;
}

async function inboxToken(subscriberId: string): Promise<string> {
  const me = await (await svc.request('/v1/environments/me')).json();
  const session = await fetch(`${svc.url}/v1/inbox/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ applicationIdentifier: me.data.identifier, subscriber: { subscriberId } }) });
  return (await session.json()).data.token;
}

async function inbox(subscriberId: string): Promise<Array<{ id: string; subject?: string; body: string }>> {
  const list = await fetch(`${svc.url}/v1/inbox/notifications?limit=50`, { headers: { authorization: `Bearer ${await inboxToken(subscriberId)}` } });
  return (await list.json()).data;
}

beforeAll(async () => {
  smtp = await startSmtpFake();
  // The bridge is on loopback: the operator allows private networks. Retries after 300 ms, not minutes.
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true', HERALD_RETRY_POLICY: JSON.stringify({ initialDelayMs: 300, jitter: 0 }) });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  bridge = await startBridge(served, svc.apiKey);
  await novu.integrations.create({ providerId: 'nodemailer', identifier: 'smtp', name: 'SMTP', active: true, credentials: { host: smtp.host, port: String(smtp.port), from: 'shop@herald.test', secure: false } });
  const sync = await novuSync(bridge.url, svc.apiKey, svc.url);
  expect(sync.code, sync.output).toBe(0);
}, 120_000);
afterAll(async () => {
  bridge?.close();
  await svc?.dispose();
  await smtp?.close();
});

describe('novu sync against Herald', () => {
  it('stores the bridge workflows as origin external, with steps, payload schema, control schemas, preferences, tags and name', async () => {
    const { result } = await novu.workflows.get('order-digest');
    expect(result).toMatchObject({ workflowId: 'order-digest', name: 'Order digest', origin: 'external', tags: ['orders'] });
    expect(result.steps.map((s) => [s.stepId, s.type])).toEqual([['wait', 'delay'], ['collect', 'digest'], ['score', 'custom'], ['bell', 'in_app'], ['mail', 'email']]);
    expect(result.payloadSchema).toMatchObject({ required: ['orderId', 'items'] });
    // Each step's control schema as the code declares it, and the values checked against it.
    expect(result.steps[3].controls).toMatchObject({ dataSchema: { properties: { subject: { type: 'string', default: 'Your orders' } } } });
    const steps = result.steps.map((s) => ({ stepId: s.stepId, type: s.type, name: s.name }));
    steps[3] = { ...steps[3], controlValues: { subject: 42 } } as (typeof steps)[number];
    const refused = await svc.request('/v2/workflows/order-digest', { method: 'PUT', json: { name: result.name, steps } });
    expect(refused.status).toBe(422);
    expect(Object.keys((await refused.json()).errors)).toEqual(['steps[3].controlValues.subject']);
    expect(bridge.calls).toContain('discover');
    const { result: optional } = await novu.workflows.get('optional');
    expect(optional.preferences.default).toMatchObject({ all: { enabled: true, readOnly: true }, channels: { email: { enabled: false }, in_app: { enabled: true } } });
  });

  it('refuses step changes through the update routes but keeps control values and activation editable', async () => {
    const { result } = await novu.workflows.get('ping');
    const steps = result.steps.map((s) => ({ stepId: s.stepId, type: s.type, name: s.name }));
    const put = (json: object) => svc.request('/v2/workflows/ping', { method: 'PUT', json: { name: result.name, ...json } });
    const refused = await put({ steps: [...steps, { type: 'sms', name: 'Extra' }] });
    expect(refused.status).toBe(409);
    expect((await refused.json()).message).toMatch(/defined in code.*steps/);
    expect((await svc.request('/v2/workflows/ping', { method: 'PATCH', json: { name: 'Renamed' } })).status).toBe(409);
    expect((await svc.request('/v2/workflows/ping', { method: 'PATCH', json: { active: false } })).status).toBe(200);
    expect((await svc.request('/v2/workflows/ping', { method: 'PATCH', json: { active: true } })).status).toBe(200);
    const edited = await put({ steps: [{ ...steps[0], controlValues: {} }] });
    expect(edited.status).toBe(200);
  });

  it('reports novu-cloud for a workflow created through the API', async () => {
    const { result } = await novu.workflows.create({ name: 'From the API', workflowId: 'from-api', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'hi' } }] });
    expect(result.origin).toBe('novu-cloud');
  });
});

describe('execution through the bridge', () => {
  it('runs delay, digest, a custom step whose result the next steps use, in-app and email', async () => {
    await novu.subscribers.create({ subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' });
    for (const [i, items] of [2, 3, 4].entries()) {
      const overrides = { providers: { nodemailer: { replyTo: 'trigger@shop.test', headers: { 'X-Trigger': 'kept' } } } };
      await novu.trigger({ workflowId: 'order-digest', to: 'ada', payload: { orderId: `O-${i + 1}`, items }, overrides, transactionId: `digest-${i}` });
    }
    const mail = await waitFor(async () => smtp.messages.find((m) => m.mail.subject === '3 orders shipped'), 30_000);
    expect(mail.mail.html).toContain('9 items are on their way');
    expect([mail.mail.replyTo?.text, mail.mail.headers.get('x-order-count'), mail.mail.headers.get('x-trigger')]).toEqual(['support@shop.test', '3', 'kept']);
    const messages = await inbox('ada');
    // The leader is whichever event's delay ended first.
    expect(messages.map((m) => [m.subject, m.body])).toEqual([['Your orders', expect.stringMatching(/^3 orders, 9 items \(last O-[123]\)$/)]]);
    // One notification carried the digest on; the two others merged into it.
    const statuses = await Promise.all([0, 1, 2].map(async (i) => (await activity(`digest-${i}`))[0].jobs.map((j) => `${j.step.stepId}:${j.status}`)));
    expect(statuses.filter((s) => s.includes('mail:completed'))).toHaveLength(1);
    const leader = statuses.find((s) => s.includes('mail:completed'))!;
    expect(leader).toEqual(['wait:completed', 'collect:completed', 'score:completed', 'bell:completed', 'mail:completed']);
    expect(statuses.filter((s) => s.includes('collect:merged'))).toHaveLength(2);
    // The activity shows the delay's and the digest's timing as the bridge's code gave it.
    const jobs = await Promise.all([0, 1, 2].map(async (i) => (await activity(`digest-${i}`))[0].jobs));
    const timing = (stepId: string) => jobs.map((list) => list.find((j) => j.step.stepId === stepId)?.digest);
    expect(timing('wait')).toEqual(Array(3).fill({ type: 'regular', amount: 1, unit: 'seconds' }));
    expect(timing('collect').map((d) => [d?.type, d?.amount, d?.unit, d?.events?.length]).sort()).toEqual([['regular', 3, 'seconds', undefined], ['regular', 3, 'seconds', undefined], ['regular', 3, 'seconds', 3]]);
    expect(bridge.calls.filter((c) => c === 'execute:order-digest:score')).toHaveLength(1);
  }, 60_000);

  it("gives later steps' code an in-app message as the subscriber left it and the delay's duration", async () => {
    await novu.subscribers.create({ subscriberId: 'grace' });
    await novu.trigger({ workflowId: 'reminder', to: 'grace', payload: {}, transactionId: 'reminder-1' });
    const bell = await waitFor(async () => (await inbox('grace')).find((m) => m.body === 'Your invoice is ready'));
    const read = await fetch(`${svc.url}/v1/inbox/notifications/${bell.id}/read`, { method: 'PATCH', headers: { authorization: `Bearer ${await inboxToken('grace')}` } });
    expect(read.status).toBe(200);
    const nudge = await waitFor(async () => (await inbox('grace')).find((m) => m.body.startsWith('read:')), 30_000);
    expect(nudge.body).toBe('read: true, seen: true, read at: a time, waited: the delay');
  }, 60_000);

  it("throttles with the window and threshold the bridge's code gives, Herald counting the executions", async () => {
    await novu.subscribers.create({ subscriberId: 'lin' });
    for (const i of [1, 2]) await novu.trigger({ workflowId: 'limited', to: 'lin', payload: {}, transactionId: `limited-${i}` });
    // Which of the two the throttle admits is whichever reached it first.
    const outcome = async () => Promise.all([1, 2].map(async (i) => (await activity(`limited-${i}`))[0]?.jobs.map((j) => `${j.step.stepId}:${j.status}`).join(' ')));
    const both = await waitFor(async () => ((await outcome()).sort().join() === 'limit:completed bell:completed,limit:skipped bell:canceled' ? true : null), 30_000);
    expect(both).toBe(true);
    const skipped = (await Promise.all([1, 2].map(async (i) => (await activity(`limited-${i}`))[0].jobs))).flat().find((j) => j.status === 'skipped')!;
    expect(skipped.executionDetails.at(-1)!.detail).toMatch(/^throttled: execution 2 in the 1 days window from .* is over the threshold of 1/);
    expect((await inbox('lin')).map((m) => m.body)).toEqual(['once a day']);
  }, 60_000);

  it('skips a step its code skips', async () => {
    await novu.trigger({ workflowId: 'optional', to: 'ada', payload: {}, transactionId: 'optional-1' });
    const [n] = await waitFor(async () => ((await activity('optional-1'))[0]?.jobs[0]?.status === 'skipped' ? activity('optional-1') : null));
    expect(n.jobs[0].executionDetails[0].detail).toBe('skipped: the bridge skipped the step');
  });

  it('previews a step on the bridge', async () => {
    const { result } = await novu.workflows.steps.generatePreview({ workflowId: 'ping', stepId: 'bell', generatePreviewRequestDto: { previewPayload: { payload: { n: 7 } } } });
    expect(result.result).toMatchObject({ type: 'in_app', preview: { body: 'pong 7' } });
  });
});

describe('failures', () => {
  it('accepts a payload the schema refuses and records the bridge refusal in the activity log, as the original does', async () => {
    const { result } = await novu.trigger({ workflowId: 'ping', to: 'ada', payload: { n: 'not a number' }, transactionId: 'bad-payload' });
    expect(result.status).toBe('processed');
    const job = await waitFor(async () => (await activity('bad-payload'))[0]?.jobs.find((j) => j.status === 'failed'));
    expect(job.executionDetails.at(-1)).toMatchObject({ status: 'Failed', source: 'Payload', detail: expect.stringMatching(/^bridge error 400 ExecutionEventPayloadInvalidError: Workflow with id: `ping` has invalid `payload`/) });
  });

  it("retries an error in the workflow's code like a 5xx, then records the framework's message", async () => {
    await novu.trigger({ workflowId: 'broken', to: 'ada', payload: {}, transactionId: 'broken-1' });
    const job = await waitFor(async () => (await activity('broken-1'))[0]?.jobs.find((j) => j.status === 'failed'), 40_000);
    const last = job.executionDetails.at(-1)!;
    expect(last).toMatchObject({ status: 'Failed', detail: expect.stringMatching(/^bridge error 502 StepExecutionFailedError: .*\(gave up after 6 attempts\)$/) });
    expect(last.raw).toContain('inventory service unreachable');
    expect(bridge.calls.filter((c) => c === 'execute:broken:bell')).toHaveLength(6);
  }, 60_000);

  it('retries a bridge that is down, then delivers once', async () => {
    bridge.down = true;
    await novu.trigger({ workflowId: 'ping', to: 'ada', payload: { n: 42 }, transactionId: 'down-then-up' });
    await waitFor(async () => (await activity('down-then-up'))[0]?.jobs[0]?.executionDetails.some((d) => /bridge error 503/.test(d.detail)));
    bridge.down = false;
    const job = await waitFor(async () => (await activity('down-then-up'))[0]?.jobs.find((j) => j.status === 'completed'), 30_000);
    expect(job.executionDetails[0].detail).toMatch(/^bridge error 503: bridge app restarting \(attempt 1, retrying in/);
    expect((await inbox('ada')).filter((m) => m.body === 'pong 42')).toHaveLength(1);
  }, 60_000);

  it('records a signature the framework refuses, with its message; a sync with a key the bridge does not hold fails', async () => {
    const direct = await fetch(`${bridge.url}?action=discover`, { headers: { 'novu-signature': `t=${Date.now()},v1=deadbeef` } });
    expect(direct.status).toBe(401);
    expect((await direct.json()).code).toBe('SignatureMismatchError');
    bridge.deploy(served, 'a-rotated-key');
    try {
      await novu.trigger({ workflowId: 'ping', to: 'ada', payload: { n: 1 }, transactionId: 'bad-signature' });
      const job = await waitFor(async () => (await activity('bad-signature'))[0]?.jobs.find((j) => j.status === 'failed'));
      expect(job.executionDetails.at(-1)).toMatchObject({ source: 'Credentials', detail: expect.stringMatching(/^bridge error 401 SignatureMismatchError: Signature does not match/) });
      const sync = await novuSync(bridge.url, svc.apiKey, svc.url);
      expect(sync.code).not.toBe(0);
      expect(sync.output).toMatch(/Bridge URL is not valid \(401 SignatureMismatchError\)/);
    } finally {
      bridge.deploy(served, svc.apiKey);
    }
  });

  it('refuses a sync whose code names an API-created workflow, changing nothing', async () => {
    await novu.workflows.create({ name: 'Made in the API', workflowId: 'api-made', steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'hi' } }] });
    const clash = workflow('api-made', async ({ step }) => {
      await step.inApp('bell', async () => ({ body: 'from code' }));
    });
    bridge.deploy([ping, clash], svc.apiKey);
    try {
      const sync = await novuSync(bridge.url, svc.apiKey, svc.url);
      expect(sync.code).not.toBe(0);
      expect(sync.output).toMatch(/Workflow 'api-made' was created through the API, not by a bridge/);
      expect((await novu.workflows.get('api-made')).result.origin).toBe('novu-cloud');
      expect((await novu.workflows.get('optional')).result.origin).toBe('external');
    } finally {
      bridge.deploy(served, svc.apiKey);
    }
  });

  it('a re-sync removes a workflow the bridge no longer serves', async () => {
    bridge.deploy([orderDigest, ping], svc.apiKey);
    try {
      const sync = await novuSync(bridge.url, svc.apiKey, svc.url);
      expect(sync.code, sync.output).toBe(0);
      await expect(novu.workflows.get('optional')).rejects.toMatchObject({ statusCode: 404 });
      expect((await novu.workflows.get('from-api')).result.origin).toBe('novu-cloud');
    } finally {
      bridge.deploy(served, svc.apiKey);
    }
  });
});
