import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { insertWorkflows } from './support/workflow-rows';

let svc: TestService;
let novu: Novu;
let ids: string[];

const ALL_ON = { email: true, sms: true, inApp: true, chat: true, push: true };
const overridesOf = (w: { overrides: Array<{ channel: string; source: string }> }) =>
  Object.fromEntries(w.overrides.map((o) => [o.channel, o.source]));

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  const created = await novu.subscribers.create({ subscriberId: 'pref-1' });
  await novu.subscribers.create({ subscriberId: 'pref-2' });
  ids = await insertWorkflows(svc.databaseUrl, created.result.environmentId, [
    { workflowId: 'welcome', name: 'Welcome' },
    { workflowId: 'password-reset', name: 'Password reset', critical: true },
    { workflowId: 'digest', name: 'Digest', preferences: { all: { enabled: true, readOnly: false }, channels: { sms: { enabled: false } } } },
    { workflowId: 'legal', name: 'Legal', preferences: { all: { enabled: true, readOnly: true }, channels: {} } },
  ]);
});
afterAll(() => svc?.dispose());

describe('subscriber preferences through the @novu/api SDK', () => {
  it('lists every workflow resolved from its defaults, filtered by criticality', async () => {
    const { result } = await novu.subscribers.preferences.list({ subscriberId: 'pref-1' });
    expect(result.global).toEqual({ enabled: true, channels: ALL_ON });
    expect(result.workflows.map((w) => w.workflow.identifier)).toEqual(['welcome', 'digest', 'legal']);
    const digest = result.workflows[1];
    expect(digest.channels).toEqual({ ...ALL_ON, sms: false });
    expect(digest.workflow).toEqual({ slug: 'digest', identifier: 'digest', name: 'Digest', updatedAt: expect.any(String) });
    expect(overridesOf(digest)).toEqual({ in_app: 'template', email: 'template', sms: 'template', chat: 'template', push: 'template' });

    const critical = await novu.subscribers.preferences.list({ subscriberId: 'pref-1', criticality: 'critical' });
    expect(critical.result.workflows.map((w) => w.workflow.identifier)).toEqual(['password-reset']);
    const all = await novu.subscribers.preferences.list({ subscriberId: 'pref-1', criticality: 'all' });
    expect(all.result.workflows).toHaveLength(4);
  });

  it('patches the global level, then one workflow, and reports which level decided each channel', async () => {
    const global = await novu.subscribers.preferences.update({ channels: { email: false, push: false } }, 'pref-1');
    expect(global.result.global).toEqual({ enabled: true, channels: { ...ALL_ON, email: false, push: false } });
    const welcome = global.result.workflows.find((w) => w.workflow.identifier === 'welcome')!;
    expect(welcome.channels).toEqual({ ...ALL_ON, email: false, push: false });
    expect(overridesOf(welcome)).toMatchObject({ email: 'subscriber', push: 'subscriber', sms: 'template' });

    const perWorkflow = await novu.subscribers.preferences.update({ workflowId: 'welcome', channels: { email: true, sms: false } }, 'pref-1');
    const after = perWorkflow.result.workflows.find((w) => w.workflow.identifier === 'welcome')!;
    expect(after.channels).toEqual({ ...ALL_ON, sms: false, push: false });
    expect(overridesOf(after)).toEqual({ in_app: 'template', email: 'subscriber', sms: 'subscriber', chat: 'template', push: 'subscriber' });
    // Other workflows keep the global level; a later patch merges rather than replaces.
    expect(perWorkflow.result.workflows.find((w) => w.workflow.identifier === 'digest')!.channels.email).toBe(false);
    const merged = await novu.subscribers.preferences.update({ workflowId: ids[0], channels: { chat: false } }, 'pref-1');
    expect(merged.result.workflows.find((w) => w.workflow.identifier === 'welcome')!.channels).toEqual({ ...ALL_ON, sms: false, push: false, chat: false });

    // The other subscriber is untouched.
    expect((await novu.subscribers.preferences.list({ subscriberId: 'pref-2' })).result.global.channels).toEqual(ALL_ON);
  });

  it('turning every channel off leaves a critical or read-only workflow on', async () => {
    const off = { email: false, sms: false, inApp: false, chat: false, push: false };
    await novu.subscribers.preferences.update({ channels: off }, 'pref-2');
    await novu.subscribers.preferences.update({ workflowId: 'password-reset', channels: off }, 'pref-2');
    const { result } = await novu.subscribers.preferences.list({ subscriberId: 'pref-2', criticality: 'all' });
    expect(result.global).toEqual({ enabled: false, channels: off });
    const byId = Object.fromEntries(result.workflows.map((w) => [w.workflow.identifier, w]));
    expect(byId.welcome.enabled).toBe(false);
    expect(byId['password-reset']).toMatchObject({ enabled: true, channels: ALL_ON });
    expect(byId.legal).toMatchObject({ enabled: true, channels: ALL_ON });
    expect(Object.values(overridesOf(byId['password-reset']))).toEqual(Array(5).fill('template'));
  });

  it('answers 404 for an unknown subscriber or workflow and 422 for non-boolean channels', async () => {
    await expect(novu.subscribers.preferences.list({ subscriberId: 'nobody' })).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.subscribers.preferences.update({ channels: { email: false } }, 'nobody')).rejects.toMatchObject({ statusCode: 404 });
    await expect(novu.subscribers.preferences.update({ workflowId: 'no-such-flow', channels: { email: false } }, 'pref-1')).rejects.toMatchObject({
      statusCode: 404,
    });
    const bad = await svc.request('/v2/subscribers/pref-1/preferences', { method: 'PATCH', json: { channels: { email: 'no' } } });
    expect(bad.status).toBe(422);
    expect((await bad.json()).errors).toHaveProperty(['channels.email']);
    const badCriticality = await svc.request('/v2/subscribers/pref-1/preferences?criticality=some');
    expect(badCriticality.status).toBe(422);
  });
});
