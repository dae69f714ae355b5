import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

let svc: TestService;
let novu: Novu;

const IN_APP = { type: 'in_app', stepId: 'in-app', controlValues: { subject: 'Hi {{subscriber.firstName}}', body: 'Order {{payload.orderId}} shipped' } };

async function inbox(transactionId: string) {
  return queryDatabase<{ subscriber_id: string; subject: string | null; body: string }>(
    svc.databaseUrl,
    `SELECT s.subscriber_id, m.subject, m.body FROM messages m JOIN subscribers s ON s.id = m.subscriber_id
     WHERE m.transaction_id = $1 AND m.channel = 'in_app' ORDER BY s.subscriber_id`,
    [transactionId],
  );
}

/** A transaction's step runs as the activity log shows them (an in-app step run inline among them), by subscriber, in step order. */
async function jobs(transactionId: string) {
  type Listed = { subscriber: { subscriberId: string }; jobs: Array<{ status: string; step: { stepId: string }; executionDetails: Array<{ detail: string }> }> };
  const { data } = (await (await svc.request(`/v1/notifications?transactionId=${encodeURIComponent(transactionId)}&limit=50`)).json()) as { data: Listed[] };
  return data
    .flatMap((n) => n.jobs.map((j) => ({ subscriber_id: n.subscriber.subscriberId, step_id: j.step.stepId, status: j.status, details: j.executionDetails.map((d) => d.detail) })))
    .sort((a, b) => (a.subscriber_id < b.subscriber_id ? -1 : a.subscriber_id > b.subscriber_id ? 1 : 0));
}

const settled = (rows: Array<{ status: string }>) => rows.length > 0 && rows.every((r) => !['pending', 'queued', 'running', 'delayed'].includes(r.status));

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'order-shipped' }, [IN_APP]);
});
afterAll(() => svc?.dispose());

describe('trigger through the @novu/api SDK', () => {
  it('delivers to a subscriber id and to a subscriber object (created on the fly)', async () => {
    const { result } = await novu.trigger({
      workflowId: 'order-shipped',
      to: ['plain-id', { subscriberId: 'object-sub', firstName: 'Ada', email: 'ada@example.com' }],
      payload: { orderId: 'A-1' },
      transactionId: 'tx-direct',
    });
    expect(result).toMatchObject({ acknowledged: true, status: 'processed', transactionId: 'tx-direct' });
    const rows = await waitFor(async () => ((await inbox('tx-direct')).length === 2 ? inbox('tx-direct') : null));
    expect(rows).toEqual([
      { subscriber_id: 'object-sub', subject: 'Hi Ada', body: 'Order A-1 shipped' },
      { subscriber_id: 'plain-id', subject: 'Hi ', body: 'Order A-1 shipped' },
    ]);
    expect((await novu.subscribers.retrieve('object-sub')).result.email).toBe('ada@example.com');
    const detail = await waitFor(async () => {
      const j = await jobs('tx-direct');
      return settled(j) ? j : null;
    });
    expect(detail.map((j) => j.status)).toEqual(['completed', 'completed']);
    expect(detail[0].details).toEqual(['in-app message stored in the inbox of object-sub']);
  });

  it('runs the in-app step with the trigger for an existing subscriber named by an object, as the object leaves it', async () => {
    await novu.subscribers.create({ subscriberId: 'renamed-sub', firstName: 'Old', lastName: 'Kept' });
    await novu.trigger({ workflowId: 'order-shipped', to: { subscriberId: 'renamed-sub', firstName: 'New' }, payload: { orderId: 'B-2' }, transactionId: 'tx-object' });
    // Written with the event: in the inbox as soon as the trigger is answered, with the new name.
    expect(await inbox('tx-object')).toEqual([{ subscriber_id: 'renamed-sub', subject: 'Hi New', body: 'Order B-2 shipped' }]);
    expect((await novu.subscribers.retrieve('renamed-sub')).result).toMatchObject({ firstName: 'New', lastName: 'Kept' });
    expect(await jobs('tx-object')).toEqual([
      { subscriber_id: 'renamed-sub', step_id: 'in-app', status: 'completed', details: ['in-app message stored in the inbox of renamed-sub'] },
    ]);
    const ran = await queryDatabase<{ inline: boolean }>(svc.databaseUrl, `SELECT inline_job_id IS NOT NULL AS inline FROM notifications WHERE transaction_id = 'tx-object'`);
    expect(ran).toEqual([{ inline: true }]);
  });

  it('fans out to a topic once per subscriber, honouring exclude, the actor and subscription conditions', async () => {
    await novu.subscribers.createBulk({
      subscribers: ['t-a', 't-b', 't-c', 't-d', 't-actor'].map((subscriberId) => ({ subscriberId, data: { plan: subscriberId === 't-c' ? 'free' : 'pro' } })),
    });
    await novu.topics.subscriptions.create({ subscriptions: ['t-a', 't-b', 't-d', 't-actor'] }, 'deals');
    // t-c only receives order-shipped when the payload's region matches its plan rule (it will not).
    await novu.topics.subscriptions.create(
      { subscriptions: ['t-c'], preferences: [{ workflowId: 'order-shipped', condition: { '==': [{ var: 'payload.region' }, 'moon'] } }] },
      'deals',
    );
    const { result } = await novu.trigger({
      workflowId: 'order-shipped',
      to: [{ type: 'Topic', topicKey: 'deals', exclude: ['t-b'] }, 't-a'],
      actor: 't-actor',
      payload: { orderId: 'T-1', region: 'earth' },
      transactionId: 'tx-topic',
    });
    expect(result.status).toBe('processed');
    await waitFor(async () => (await queryDatabase(svc.databaseUrl, "SELECT 1 FROM events WHERE transaction_id = 'tx-topic' AND status = 'fanned_out'")).length === 1);
    const rows = await waitFor(async () => {
      const r = await inbox('tx-topic');
      return r.length >= 2 ? r : null;
    });
    await new Promise((r) => setTimeout(r, 300));
    expect((await inbox('tx-topic')).map((r) => r.subscriber_id)).toEqual(['t-a', 't-d']);
    expect(rows.every((r) => r.body === 'Order T-1 shipped')).toBe(true);
  });

  it('ignores a reused transactionId without creating anything, and says so', async () => {
    await novu.trigger({ workflowId: 'order-shipped', to: 'dup-sub', payload: { orderId: 1 }, transactionId: 'tx-dup' });
    const again = await novu.trigger({ workflowId: 'order-shipped', to: 'dup-sub-2', payload: { orderId: 2 }, transactionId: 'tx-dup' });
    expect(again.result).toMatchObject({ acknowledged: false, status: 'error' });
    expect(again.result.error?.[0]).toMatch(/tx-dup.*already used.*ignored/);
    const events = await queryDatabase(svc.databaseUrl, "SELECT id FROM events WHERE transaction_id = 'tx-dup'");
    expect(events).toHaveLength(1);
    expect(await queryDatabase(svc.databaseUrl, "SELECT 1 FROM subscribers WHERE subscriber_id = 'dup-sub-2'")).toHaveLength(0);
  });

  it('creates exactly one event when the same transactionId races', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'order-shipped', to: `race-${i}`, transactionId: 'tx-race' } }).then((r) => r.json())),
    );
    expect(results.filter((r) => r.data.status === 'processed')).toHaveLength(1);
    expect(results.filter((r) => r.data.status === 'error')).toHaveLength(9);
    expect(await queryDatabase(svc.databaseUrl, "SELECT 1 FROM notifications WHERE transaction_id = 'tx-race'")).toHaveLength(1);
  });

  it('answers the statuses of the spec for inactive, empty and unknown workflows and bad recipients', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'inactive', active: false }, [IN_APP]);
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'no-steps' }, []);
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'inactive-steps' }, [{ ...IN_APP, active: false }]);
    expect((await novu.trigger({ workflowId: 'inactive', to: 'x' })).result.status).toBe('trigger_not_active');
    expect((await novu.trigger({ workflowId: 'no-steps', to: 'x' })).result.status).toBe('no_workflow_steps_defined');
    expect((await novu.trigger({ workflowId: 'inactive-steps', to: 'x' })).result.status).toBe('no_workflow_active_steps_defined');
    expect((await novu.trigger({ workflowId: 'order-shipped', to: [] })).result.status).toBe('invalid_recipients');

    const unknown = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'nope', to: 'x' } });
    expect(unknown.status).toBe(422);
    expect((await unknown.json()).errors.name.messages[0]).toMatch(/nope/);

    const tooMany = await svc.request('/v1/events/trigger', {
      method: 'POST',
      json: { name: 'order-shipped', to: Array.from({ length: 101 }, (_, i) => `m-${i}`) },
    });
    expect(tooMany.status).toBe(422);
    expect((await tooMany.json()).errors.to.messages[0]).toMatch(/at most 100/);
    const hundred = await novu.trigger({ workflowId: 'order-shipped', to: Array.from({ length: 100 }, (_, i) => `h-${i}`), transactionId: 'tx-100' });
    expect(hundred.result.status).toBe('processed');
    await waitFor(async () => (await inbox('tx-100')).length === 100);
  });

  it('validates the payload against the workflow schema with a 400 listing the errors', async () => {
    await insertWorkflowWithSteps(
      svc.databaseUrl,
      { workflowId: 'with-schema', payloadSchema: { type: 'object', required: ['orderId'], properties: { orderId: { type: 'string' } } } },
      [IN_APP],
    );
    const res = await svc.request('/v1/events/trigger', { method: 'POST', json: { name: 'with-schema', to: 'x', payload: { orderId: 5 } } });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.errors).toEqual([expect.objectContaining({ field: 'payload.orderId', message: expect.stringContaining('string') })]);
    expect((await novu.trigger({ workflowId: 'with-schema', to: 'x', payload: { orderId: 'ok' } })).result.status).toBe('processed');
  });
});

describe('step execution', () => {
  it('skips steps by condition and by preference, runs custom steps and exposes their output', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'pipeline' }, [
      { type: 'custom', stepId: 'lookup', controlValues: { output: { coupon: 'SAVE10' } } },
      { type: 'in_app', stepId: 'vip-only', skip: { '!=': [{ var: 'subscriber.data.tier' }, 'vip'] }, controlValues: { body: 'VIP {{payload.n}}' } },
      {
        type: 'in_app',
        stepId: 'filtered',
        filters: [{ isNegated: false, type: 'GROUP', value: 'AND', children: [{ field: 'n', value: '10', operator: 'LARGER', on: 'payload' }] }],
        controlValues: { body: 'Big order' },
      },
      { type: 'in_app', stepId: 'coupon', controlValues: { body: 'Use {{steps.lookup.coupon}}' } },
    ]);
    await novu.subscribers.create({ subscriberId: 'pipe-user', data: { tier: 'basic' } });
    await novu.trigger({ workflowId: 'pipeline', to: 'pipe-user', payload: { n: 3 }, transactionId: 'tx-pipe' });
    const rows = await waitFor(async () => {
      const j = await jobs('tx-pipe');
      return settled(j) ? j : null;
    });
    expect(rows.map((r) => [r.step_id, r.status, r.details[0]])).toEqual([
      ['lookup', 'completed', expect.stringContaining('custom step output')],
      ['vip-only', 'skipped', 'skipped: skip condition is true'],
      ['filtered', 'skipped', 'skipped: condition false'],
      ['coupon', 'completed', expect.stringContaining('inbox')],
    ]);
    expect((await inbox('tx-pipe')).map((r) => r.body)).toEqual(['Use SAVE10']);
  });

  it('skips a channel the subscriber turned off, but not for a critical workflow', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'prefs-normal' }, [IN_APP]);
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'prefs-critical', critical: true }, [IN_APP]);
    await novu.subscribers.create({ subscriberId: 'quiet' });
    await novu.subscribers.preferences.update({ channels: { inApp: false } }, 'quiet');
    await novu.trigger({ workflowId: 'prefs-normal', to: 'quiet', payload: { orderId: 1 }, transactionId: 'tx-quiet' });
    await novu.trigger({ workflowId: 'prefs-critical', to: 'quiet', payload: { orderId: 2 }, transactionId: 'tx-critical' });
    const normal = await waitFor(async () => {
      const j = await jobs('tx-quiet');
      return settled(j) ? j : null;
    });
    expect(normal[0]).toMatchObject({ status: 'skipped', details: ['skipped: preference in_app disabled by subscriber (global)'] });
    await waitFor(async () => (await inbox('tx-critical')).length === 1);
  });
});

describe('outbound HTTP safety', () => {
  it('refuses http_request steps to loopback and private addresses by default', async () => {
    await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'ssrf' }, [
      { type: 'http_request', stepId: 'call', controlValues: { url: 'http://127.0.0.1:9/admin', method: 'GET' } },
      { type: 'http_request', stepId: 'call2', controlValues: { url: 'http://localhost:9/admin', method: 'GET', continueOnFailure: true } },
    ]);
    await novu.trigger({ workflowId: 'ssrf', to: 'ssrf-user', transactionId: 'tx-ssrf' });
    const rows = await waitFor(async () => {
      const j = await jobs('tx-ssrf');
      return settled(j) ? j : null;
    });
    expect(rows[0]).toMatchObject({ status: 'failed', details: [expect.stringMatching(/refused to call 127\.0\.0\.1.*not allowed/)] });
    expect(rows[1].status).toBe('canceled');
  });
});
