import { createHmac } from 'node:crypto';
import { Novu } from '@novu/api';
import { PrismaTenancyRepository, connectDatabase } from '@herald/adapters';
import { ManageApiKeys } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { novuSync, startBridge } from './support/bridge';
import { ping } from './support/code-workflows';
import { startService, type TestService } from './support/service';

let svc: TestService;
let novu: Novu;

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
});
afterAll(() => svc?.dispose());

const inApp = (body: string) => ({ type: 'in_app' as const, name: 'Bell', controlValues: { subject: 'Hello', body } });

describe('workflows through the @novu/api SDK', () => {
  it('creates (201), gets by identifier and by id, updates, patches and deletes', async () => {
    const created = await novu.workflows.create({
      name: 'Order shipped',
      workflowId: 'order-shipped',
      tags: ['orders'],
      active: true,
      payloadSchema: { type: 'object', properties: { orderId: { type: 'string' } } },
      preferences: { user: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false } } } },
      steps: [inApp('Order {{payload.orderId}} shipped'), { type: 'email', name: 'Mail', controlValues: { subject: 'Shipped', body: '<p>{{payload.orderId}}</p>' } }],
    });
    const wf = created.result;
    expect(wf).toMatchObject({ workflowId: 'order-shipped', slug: 'order-shipped', name: 'Order shipped', status: 'ACTIVE', tags: ['orders'], severity: 'none' });
    expect(wf.steps.map((s) => [s.stepId, s.type])).toEqual([['bell', 'in_app'], ['mail', 'email']]);
    expect(wf.steps[0].controlValues).toMatchObject({ body: 'Order {{payload.orderId}} shipped' });
    expect(wf.preferences.default.channels).toMatchObject({ email: { enabled: false }, sms: { enabled: true } });
    expect(wf.validatePayload).toBe(true);

    expect((await novu.workflows.get('order-shipped')).result.id).toBe(wf.id);
    expect((await novu.workflows.get(wf.id)).result.workflowId).toBe('order-shipped');
    const step = await novu.workflows.steps.retrieve('order-shipped', 'mail');
    expect(step.result).toMatchObject({ stepId: 'mail', type: 'email', workflowDatabaseId: wf.id, controlValues: { subject: 'Shipped' } });
    expect((await novu.workflows.steps.retrieve(wf.id, wf.steps[0].id)).result.stepId).toBe('bell');

    const updated = await novu.workflows.update(
      { name: 'Order shipped v2', preferences: {}, steps: [{ ...inApp('Now {{payload.orderId}}'), stepId: 'bell' }] },
      'order-shipped',
    );
    expect(updated.result).toMatchObject({ name: 'Order shipped v2', workflowId: 'order-shipped' });
    expect(updated.result.steps).toHaveLength(1);
    expect(updated.result.steps[0].id).toBe(wf.steps[0].id);

    const patched = await novu.workflows.patch({ active: false, tags: ['orders', 'eu'] }, wf.id);
    expect(patched.result).toMatchObject({ status: 'INACTIVE', tags: ['orders', 'eu'], active: false });

    const removed = await svc.request('/v2/workflows/order-shipped', { method: 'DELETE' });
    expect(removed.status).toBe(204);
    await expect(novu.workflows.get('order-shipped')).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.workflows.delete('order-shipped')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('derives the identifier from the name, and answers 409 for a taken one', async () => {
    const res = await svc.request('/v2/workflows', { method: 'POST', json: { name: 'Weekly Digest!', steps: [] } });
    expect(res.status).toBe(201);
    expect((await res.json()).data.workflowId).toBe('weekly-digest');
    // Raw request: the SDK retries 409s with backoff.
    const taken = await svc.request('/v2/workflows', { method: 'POST', json: { name: 'Other', workflowId: 'weekly-digest' } });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toMatchObject({ code: 'WORKFLOW_ALREADY_EXISTS', message: expect.stringContaining('weekly-digest') });
  });

  it('reports issues and ERROR status, listed with query, tags, status and ordering', async () => {
    await novu.workflows.create({ name: 'List Alpha', workflowId: 'list-alpha', tags: ['list'], active: true, steps: [inApp('ok')] });
    await novu.workflows.create({ name: 'List Beta', workflowId: 'list-beta', tags: ['list', 'beta'], active: false, steps: [inApp('ok')] });
    const broken = await novu.workflows.create({
      name: 'List Gamma',
      workflowId: 'list-gamma',
      active: true,
      steps: [{ type: 'in_app', name: 'Bad', controlValues: { body: '{{ secret.key }}', avatar: 'not-a-url' } }, { type: 'sms', name: 'Text' }],
    });
    expect(broken.result.status).toBe('ERROR');
    expect(broken.result.steps[0].issues?.controls).toMatchObject({
      body: [{ issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: 'secret.key' }],
      avatar: [{ issueType: 'INVALID_URL' }],
    });
    expect(broken.result.steps[1].issues?.controls?.body?.[0].issueType).toBe('MISSING_VALUE');

    const list = async (request: Parameters<typeof novu.workflows.list>[0]) => (await novu.workflows.list(request)).result;
    const all = await list({ query: 'list-', orderBy: 'name', orderDirection: 'ASC' });
    expect(all.totalCount).toBe(3);
    expect(all.workflows.map((w) => [w.workflowId, w.status])).toEqual([['list-alpha', 'ACTIVE'], ['list-beta', 'INACTIVE'], ['list-gamma', 'ERROR']]);
    expect(all.workflows[2].steps[0]).toMatchObject({ slug: 'bad', type: 'in_app', issues: { controls: { body: [expect.anything()] } } });
    expect(all.workflows[2].stepTypeOverviews).toEqual(['in_app', 'sms']);
    expect((await list({ query: 'LIST', tags: ['beta'] })).workflows.map((w) => w.workflowId)).toEqual(['list-beta']);
    expect((await list({ query: 'list', status: ['ERROR', 'INACTIVE'], orderBy: 'name', orderDirection: 'DESC' })).workflows.map((w) => w.workflowId)).toEqual(['list-gamma', 'list-beta']);
    const paged = await list({ query: 'list', orderBy: 'name', orderDirection: 'ASC', limit: 1, offset: 1 });
    expect(paged).toMatchObject({ totalCount: 3, workflows: [{ workflowId: 'list-beta' }] });
  });

  it('answers 422 naming the field for bad bodies, and 404 for an unknown workflow', async () => {
    const bad = async (json: unknown) => {
      const res = await svc.request('/v2/workflows', { method: 'POST', json });
      expect(res.status).toBe(422);
      return Object.keys((await res.json()).errors);
    };
    expect(await bad({ name: 'x', steps: [inApp('ok'), { type: 'sms', name: 'S', controlValues: { body: 42 } }] })).toEqual(['steps[1].controlValues.body']);
    expect(await bad({ name: 'x', steps: [{ type: 'digest', name: 'D', controlValues: { amount: 1, unit: 'fortnights' } }] })).toEqual(['steps[0].controlValues.unit']);
    expect(await bad({ name: 'x', steps: [{ type: 'teleport', name: 'T' }] })).toEqual(['steps[0].type']);
    expect(await bad({ name: 'x', workflowId: 'no spaces' })).toEqual(['workflowId']);
    expect(await bad({ name: 'x', payloadSchema: 'string' })).toEqual(['payloadSchema']);
    expect(await bad({ tags: [] })).toEqual(['name']);
    await expect(novu.workflows.create({ name: 'x', steps: [{ type: 'sms', name: 's', controlValues: { skip: { nope: 1 } } }], workflowId: 'skip-bad' })).rejects.toMatchObject({ statusCode: 422 });
    await expect(novu.workflows.get('missing-workflow')).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.workflows.patch({ active: true }, 'missing-workflow')).rejects.toMatchObject({ statusCode: 404 });
  });

  it("keeps another environment's workflows invisible", async () => {
    await novu.workflows.create({ name: 'Dev only', workflowId: 'dev-only', steps: [] });
    const db = connectDatabase(svc.databaseUrl, 2);
    const { key } = await new ManageApiKeys(new PrismaTenancyRepository(db.prisma)).create('production');
    await db.close();
    const prod = new Novu({ secretKey: key, serverURL: svc.url });
    await expect(prod.workflows.get('dev-only')).rejects.toMatchObject({ statusCode: 404 });
    expect((await prod.workflows.list({ query: 'dev-only' })).result.totalCount).toBe(0);
    // Production takes workflows by promotion only (workflows-promotion.e2e.test.ts).
    await expect(prod.workflows.create({ name: 'Dev only', workflowId: 'dev-only', steps: [] })).rejects.toMatchObject({ statusCode: 403 });
  });
});

describe('step preview through the @novu/api SDK', () => {
  beforeAll(async () => {
    await novu.workflows.create({
      name: 'Preview',
      workflowId: 'preview',
      steps: [
        inApp('Hi {{subscriber.firstName}}, order {{payload.orderId}} is on its way'),
        { type: 'email', name: 'Mail', controlValues: { subject: '{{ payload.count | pluralize: "item" }} shipped', body: '<p>{{ payload.orderId | default: "n/a" }}</p>' } },
        { type: 'http_request', name: 'Hook', controlValues: { method: 'POST', url: 'https://hooks.example.com/{{payload.orderId}}', body: [{ key: 'order', value: '{{payload.orderId}}' }] } },
      ],
    });
  });

  const preview = (stepId: string, generatePreviewRequestDto: object) =>
    novu.workflows.steps.generatePreview({ workflowId: 'preview', stepId, generatePreviewRequestDto });

  it('renders an in_app step with subscriber and payload variables', async () => {
    const { result } = await preview('bell', { previewPayload: { subscriber: { firstName: 'Ada' }, payload: { orderId: 'A-17' } } });
    expect(result.result).toEqual({ type: 'in_app', preview: { subject: 'Hello', body: 'Hi Ada, order A-17 is on its way' } });
    expect(result.previewPayloadExample).toMatchObject({ subscriber: { firstName: 'Ada' }, payload: { orderId: 'A-17' } });
  });

  it('fills variables it is not given from the example', async () => {
    const { result } = await preview('bell', {});
    expect(result.result).toMatchObject({ preview: { body: 'Hi {{subscriber.firstName}}, order {{payload.orderId}} is on its way' } });
    expect(result.previewPayloadExample).toEqual({ subscriber: { firstName: '{{subscriber.firstName}}' }, payload: { orderId: '{{payload.orderId}}' } });
  });

  it('renders an email step with filters', async () => {
    const { result } = await preview('mail', { previewPayload: { payload: { count: 2, orderId: '' } } });
    expect(result.result).toEqual({ type: 'email', preview: { subject: '2 items shipped', body: '<p>n/a</p>' } });
  });

  it('returns a template error as `error`, not as an HTTP error', async () => {
    const { result } = await preview('bell', { controlValues: { body: 'Hi {{ subscriber.firstName | shout }}' } });
    expect(result.result).toMatchObject({ type: 'in_app', error: { title: expect.stringContaining('body'), message: expect.stringContaining('shout'), hint: expect.any(String) } });
  });

  it('signs an http_request body with the environment secret as heraldSignature', async () => {
    await expect(preview('hook', { previewPayload: { payload: { orderId: 'A-17' } } })).resolves.toBeTruthy();
    const res = await svc.request('/v2/workflows/preview/step/hook/preview', { method: 'POST', json: { previewPayload: { payload: { orderId: 'A-17' } } } });
    expect(res.status).toBe(201);
    const { data } = await res.json();
    expect(data.result).toEqual({ type: 'http_request', preview: { method: 'POST', url: 'https://hooks.example.com/A-17', headers: [], body: '{"order":"A-17"}' } });
    const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(data.heraldSignature)!;
    const db = connectDatabase(svc.databaseUrl, 2);
    const [environment] = await db.prisma.environment.findMany({ where: { slug: 'development' } });
    await db.close();
    expect(v1).toBe(createHmac('sha256', environment.signingSecret).update(`${t}.{"order":"A-17"}`).digest('hex'));
  });

  it('answers 404 for an unknown step or workflow and 422 for malformed draft controls', async () => {
    await expect(preview('nope', {})).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.workflows.steps.generatePreview({ workflowId: 'nope', stepId: 'bell', generatePreviewRequestDto: {} })).rejects.toMatchObject({ statusCode: 404 });
    const res = await svc.request('/v2/workflows/preview/step/bell/preview', { method: 'POST', json: { controlValues: { body: 7 } } });
    expect(res.status).toBe(422);
    expect(Object.keys((await res.json()).errors)).toEqual(['controlValues.body']);
  });
});

describe('workflows as code behind the outbound guard', () => {
  it('refuses a bridge on a private address unless the operator allows it: the sync fails naming the guard, nothing is stored', async () => {
    const bridge = await startBridge([ping], svc.apiKey);
    try {
      const sync = await novuSync(bridge.url, svc.apiKey, svc.url);
      expect(sync.code).not.toBe(0);
      expect(sync.output).toMatch(/Bridge URL is not valid: could not reach the bridge: refused to call 127\.0\.0\.1: private, loopback and link-local addresses are not allowed \(HERALD_ALLOW_PRIVATE_NETWORKS\)/);
      expect(bridge.calls).toEqual([]);
      await expect(novu.workflows.get('ping')).rejects.toMatchObject({ statusCode: 404 });
    } finally {
      bridge.close();
    }
  });
});
