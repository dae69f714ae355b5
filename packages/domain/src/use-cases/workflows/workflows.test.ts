import { beforeEach, describe, expect, it } from 'vitest';
import type { ChannelType } from '../../entities/channel';
import type { Environment } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import { verifyRequestSignature } from '../../rules/http-signature';
import { InMemoryWorkflowRepository } from '../../testing/in-memory-workflow-repository';
import { CreateWorkflow } from './create-workflow';
import { PatchWorkflow } from './patch-workflow';
import { PreviewStep } from './preview-step';
import { UpdateWorkflow } from './update-workflow';
import { DeleteWorkflow } from './delete-workflow';
import { GetWorkflow, ListWorkflows } from './workflow-queries';

const ENV = 'env-1';
const channels = new Set<ChannelType>(['in_app', 'email']);
const integrations = { activeChannels: async () => channels };
const environment: Environment = { id: ENV, organizationId: 'org', name: 'Development', slug: 'development', signingSecret: 'sekret', publicIdentifier: 'pk_1', inboxHmac: false, corsOrigins: [], inboxSecurityVersion: 0 };
const environments = { findEnvironment: async (id: string) => (id === ENV ? environment : null) };

async function rejection(promise: Promise<unknown>): Promise<DomainError> {
  const error = await promise.then(() => null, (e: unknown) => e);
  if (!(error instanceof DomainError)) throw new Error(`expected a DomainError, got ${String(error)}`);
  return error;
}

let repo: InMemoryWorkflowRepository;
let create: CreateWorkflow;
beforeEach(() => {
  repo = new InMemoryWorkflowRepository();
  create = new CreateWorkflow(repo, integrations);
});

describe('CreateWorkflow', () => {
  it('derives the trigger identifier and step ids from names, unique within the workflow', async () => {
    const workflow = await create.execute(ENV, {
      name: 'Order Shipped – EU!',
      steps: [
        { type: 'in_app', name: 'Notify', controlValues: { body: 'x' } },
        { type: 'email', name: 'Notify', controlValues: { subject: 's', body: 'b' } },
        { type: 'email', name: 'Other', stepId: 'notify-2', controlValues: { subject: 's', body: 'b' } },
      ],
    });
    expect(workflow.workflowId).toBe('order-shipped-eu');
    expect(workflow.steps.map((s) => s.stepId)).toEqual(['notify', 'notify-3', 'notify-2']);
    expect(workflow.status).toBe('ACTIVE');
  });

  it('reports issues and ERROR status for a draft with missing values and no sms provider', async () => {
    const workflow = await create.execute(ENV, { name: 'Draft', steps: [{ type: 'sms', name: 'Text' }] });
    expect(workflow.status).toBe('ERROR');
    expect(workflow.steps[0].issues).toEqual({
      controls: { body: [expect.objectContaining({ issueType: 'MISSING_VALUE' })] },
      integration: { sms: [expect.objectContaining({ issueType: 'MISSING_INTEGRATION' })] },
    });
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ name: 'x', workflowId: 'has space' }, 'workflowId'],
    [{ name: 'x', steps: [{ type: 'trigger', name: 't' }] }, 'steps[0].type'],
    [{ name: 'x', steps: [{ type: 'sms', name: 'a', stepId: 'a' }, { type: 'sms', name: 'b', stepId: 'a' }] }, 'steps[1].stepId'],
    [{ name: 'x', steps: [{ type: 'in_app', name: 'a' }, { type: 'sms', name: 'b', controlValues: { body: 1 } }] }, 'steps[1].controlValues.body'],
    [{ name: 'x', payloadSchema: { type: 'array' } }, 'payloadSchema.type'],
    [{ name: 'x', tags: [''] }, 'tags'],
  ])('rejects %j naming %s', async (input, field) => {
    const error = await rejection(create.execute(ENV, input as never));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.fields ?? {})).toContain(field);
  });

  it('refuses a taken trigger identifier', async () => {
    await create.execute(ENV, { name: 'Welcome' });
    expect((await rejection(create.execute(ENV, { name: 'Other', workflowId: 'welcome' }))).code).toBe('WORKFLOW_ALREADY_EXISTS');
    await expect(create.execute('env-2', { name: 'Welcome' })).resolves.toMatchObject({ workflowId: 'welcome' });
  });
});

describe('UpdateWorkflow and PatchWorkflow', () => {
  it('replaces steps, keeping the internal id of a step whose stepId stays, and keeps fields the body omits', async () => {
    const created = await create.execute(ENV, {
      name: 'W',
      critical: true,
      steps: [
        { type: 'in_app', name: 'A', controlValues: { body: 'a' } },
        { type: 'email', name: 'B', controlValues: { subject: 's', body: 'b' } },
      ],
    });
    const updated = await new UpdateWorkflow(repo, integrations).execute(ENV, created.id, {
      name: 'W2',
      steps: [{ type: 'in_app', name: 'A', stepId: 'a', controlValues: { body: 'changed' } }],
    });
    expect(updated).toMatchObject({ name: 'W2', workflowId: 'w', critical: true });
    expect(updated.steps).toEqual([expect.objectContaining({ id: created.steps[0].id, controlValues: { body: 'changed' } })]);
  });

  it('patches attributes and reports an unknown workflow', async () => {
    await create.execute(ENV, { name: 'W', steps: [{ type: 'in_app', name: 'A', controlValues: { body: 'a' } }] });
    const patch = new PatchWorkflow(repo, integrations);
    expect(await patch.execute(ENV, 'w', { active: false, tags: ['a', 'a', 'b'] })).toMatchObject({ status: 'INACTIVE', tags: ['a', 'b'], steps: [expect.anything()] });
    expect((await rejection(patch.execute(ENV, 'nope', { active: true }))).code).toBe('WORKFLOW_NOT_FOUND');
    expect((await rejection(patch.execute(ENV, 'w', { name: ' ' }))).fields).toHaveProperty('name');
  });
});

describe('queries', () => {
  it('gets by identifier or id, lists with filters and status, deletes', async () => {
    const a = await create.execute(ENV, { name: 'Alpha', tags: ['billing'], steps: [{ type: 'in_app', name: 's', controlValues: { body: 'x' } }] });
    await create.execute(ENV, { name: 'Beta', active: false });
    await create.execute(ENV, { name: 'Gamma', tags: ['billing'], steps: [{ type: 'sms', name: 's', controlValues: { body: 'x' } }] });
    const get = new GetWorkflow(repo, integrations);
    expect((await get.execute(ENV, a.id)).workflowId).toBe('alpha');
    expect((await get.execute(ENV, 'alpha')).id).toBe(a.id);

    const list = new ListWorkflows(repo, integrations);
    const page = { offset: 0, limit: 10, orderBy: 'name', orderDirection: 'ASC' } as const;
    const names = async (extra: object) => (await list.execute(ENV, { ...page, ...extra })).workflows.map((w) => w.name);
    expect(await names({})).toEqual(['Alpha', 'Beta', 'Gamma']);
    expect(await names({ orderDirection: 'DESC', limit: 2 })).toEqual(['Gamma', 'Beta']);
    expect(await names({ offset: 2 })).toEqual(['Gamma']);
    expect(await names({ query: 'ET' })).toEqual(['Beta']);
    expect(await names({ tags: ['billing'] })).toEqual(['Alpha', 'Gamma']);
    expect(await names({ status: ['ERROR'] })).toEqual(['Gamma']);
    expect(await list.execute(ENV, { ...page, status: ['ACTIVE', 'INACTIVE'], limit: 1 })).toMatchObject({ totalCount: 2, workflows: [{ name: 'Alpha' }] });

    await new DeleteWorkflow(repo).execute(ENV, 'alpha');
    expect((await rejection(get.execute(ENV, 'alpha'))).code).toBe('WORKFLOW_NOT_FOUND');
    expect((await rejection(new DeleteWorkflow(repo).execute(ENV, 'alpha'))).code).toBe('WORKFLOW_NOT_FOUND');
  });
});

describe('PreviewStep', () => {
  const clock = { now: () => new Date(1_700_000_000_000) };
  const preview = () => new PreviewStep(repo, environments, clock);

  it('renders with the caller payload merged over the generated example', async () => {
    await create.execute(ENV, {
      name: 'Orders',
      payloadSchema: { type: 'object', properties: { currency: { type: 'string', default: 'EUR' } } },
      steps: [{ type: 'in_app', name: 'Bell', controlValues: { body: 'Hi {{subscriber.firstName}}, order {{payload.orderId}} in {{payload.currency}}' } }],
    });
    const result = await preview().execute({ environmentId: ENV, workflowId: 'orders', stepId: 'bell', previewPayload: { subscriber: { firstName: 'Ada' } } });
    expect(result.result).toEqual({ type: 'in_app', preview: { body: 'Hi Ada, order {{payload.orderId}} in EUR' } });
    expect(result.previewPayloadExample).toEqual({ subscriber: { firstName: 'Ada' }, payload: { orderId: '{{payload.orderId}}', currency: 'EUR' } });
    expect(result.schema).toMatchObject({ type: 'object' });
    expect(result.signature).toBeUndefined();
  });

  it('previews draft control values, and rejects malformed ones', async () => {
    await create.execute(ENV, { name: 'W', steps: [{ type: 'sms', name: 'S', controlValues: { body: 'stored' } }] });
    const draft = await preview().execute({ environmentId: ENV, workflowId: 'w', stepId: 's', controlValues: { body: 'draft {{ payload.n | plus: 1 }}' }, previewPayload: { payload: { n: 1 } } });
    expect(draft.result).toEqual({ type: 'sms', preview: { body: 'draft 2' } });
    const error = await rejection(preview().execute({ environmentId: ENV, workflowId: 'w', stepId: 's', controlValues: { body: 5 } }));
    expect(error.fields).toHaveProperty(['controlValues.body']);
    expect((await rejection(preview().execute({ environmentId: ENV, workflowId: 'w', stepId: 'zzz' }))).code).toBe('NOT_FOUND');
  });

  it('signs an http_request body with the environment secret', async () => {
    await create.execute(ENV, {
      name: 'Hook',
      steps: [{ type: 'http_request', name: 'Call', controlValues: { url: 'https://x.test', body: [{ key: 'id', value: '{{ payload.id }}' }] } }],
    });
    const result = await preview().execute({ environmentId: ENV, workflowId: 'hook', stepId: 'call', previewPayload: { payload: { id: 'p1' } } });
    expect(result.result).toMatchObject({ type: 'http_request', preview: { body: '{"id":"p1"}' } });
    expect(result.signature).toMatch(/^t=1700000000000,v1=/);
    expect(verifyRequestSignature('sekret', '{"id":"p1"}', result.signature!)).toBe(true);
  });
});
