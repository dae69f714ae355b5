import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WorkflowDraft } from '../entities/workflow';
import { DomainError } from '../errors';
import type { WorkflowRepository } from '../ports/workflow-repository';

export interface WorkflowRepositoryFixture {
  repo: WorkflowRepository;
  /** Two environments that exist in the store. */
  environments: [string, string];
}

/** A workflow draft with every attribute at its default, named after its identifier. */
export const draft = (workflowId: string, overrides: Partial<WorkflowDraft> = {}): WorkflowDraft => ({
  workflowId,
  name: workflowId,
  description: null,
  tags: [],
  active: true,
  critical: false,
  severity: 'none',
  payloadSchema: null,
  preferences: {},
  data: null,
  isTranslationEnabled: false,
  steps: [],
  ...overrides,
});

const step = (stepId: string, body = stepId) => ({ stepId, name: stepId, type: 'in_app' as const, controlValues: { body }, skip: null });

/** The behaviour every WorkflowRepository has; run against the in-memory fake and the Prisma adapter. */
export function workflowRepositoryContract(name: string, setup: () => Promise<WorkflowRepositoryFixture>): void {
  describe(`WorkflowRepository contract: ${name}`, () => {
    const unique = (prefix: string) => `${prefix}-${randomUUID().slice(0, 8)}`;

    it('creates with ordered steps and round-trips every JSON field', async () => {
      const { repo, environments: [env] } = await setup();
      const skip = { '==': [{ var: 'payload.muted' }, true] };
      const created = await repo.create(env, draft(unique('wf'), {
        tags: ['a', 'b'],
        severity: 'high',
        payloadSchema: { type: 'object', properties: { n: { type: 'number' } } },
        preferences: { all: { enabled: true, readOnly: false }, channels: { email: { enabled: false } } },
        data: { team: 'growth' },
        steps: [step('second'), { ...step('first'), skip }, { stepId: 'third', name: 'T', type: 'delay', controlValues: { amount: 1, unit: 'hours' }, skip: true }],
      }));
      const found = await repo.find(env, created.workflowId);
      expect(found).toEqual(created);
      expect(found!.steps.map((s) => [s.stepId, s.skip])).toEqual([['second', null], ['first', skip], ['third', true]]);
      expect(found).toMatchObject({ tags: ['a', 'b'], severity: 'high', data: { team: 'growth' }, preferences: { channels: { email: { enabled: false } } } });
      expect(await repo.find(env, created.id)).toEqual(created);
    });

    it('scopes identifiers to the environment', async () => {
      const { repo, environments: [env, other] } = await setup();
      const id = unique('wf');
      const created = await repo.create(env, draft(id));
      await expect(repo.create(env, draft(id))).rejects.toSatisfy((e) => e instanceof DomainError && e.code === 'WORKFLOW_ALREADY_EXISTS');
      await expect(repo.create(other, draft(id))).resolves.toMatchObject({ workflowId: id });
      expect(await repo.find(other, created.id)).toBeNull();
      expect(await repo.update(other, created.id, { name: 'x' })).toBeNull();
      expect(await repo.delete(other, created.id)).toBe(false);
      expect(await repo.find(env, 'no-such-workflow')).toBeNull();
    });

    it('replaces steps keeping the ids of kept stepIds, and refuses a taken identifier', async () => {
      const { repo, environments: [env] } = await setup();
      const taken = (await repo.create(env, draft(unique('taken')))).workflowId;
      const created = await repo.create(env, draft(unique('wf'), { steps: [step('a'), step('b'), step('c')] }));
      const replaced = await repo.replace(env, created.id, draft(created.workflowId, { name: 'Renamed', steps: [step('c', 'new c'), step('d'), step('a')] }));
      expect(replaced!.name).toBe('Renamed');
      expect(replaced!.steps.map((s) => s.stepId)).toEqual(['c', 'd', 'a']);
      expect(replaced!.steps[0]).toEqual({ ...created.steps[2], controlValues: { body: 'new c' } });
      expect(replaced!.steps[2].id).toBe(created.steps[0].id);
      expect(replaced!.steps[1].id).not.toBe(created.steps[1].id);
      expect(await repo.replace(env, randomUUID(), draft(unique('gone')))).toBeNull();
      await expect(repo.replace(env, created.id, draft(taken))).rejects.toSatisfy((e) => e instanceof DomainError && e.code === 'WORKFLOW_ALREADY_EXISTS');
      expect((await repo.find(env, created.id))!.steps).toHaveLength(3);
    });

    it('updates only the given attributes and deletes', async () => {
      const { repo, environments: [env] } = await setup();
      const created = await repo.create(env, draft(unique('wf'), { description: 'd', steps: [step('a')] }));
      const updated = await repo.update(env, created.id, { active: false, payloadSchema: null, tags: ['x'] });
      expect(updated).toMatchObject({ active: false, description: 'd', tags: ['x'], steps: [{ stepId: 'a' }] });
      expect(updated!.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
      expect(await repo.delete(env, created.id)).toBe(true);
      expect(await repo.delete(env, created.id)).toBe(false);
      expect(await repo.find(env, created.workflowId)).toBeNull();
    });

    it('lists matches by name or identifier and by tag, ordered and paged, with the total', async () => {
      const { repo, environments: [, env] } = await setup();
      const tag = unique('tag');
      const mark = unique('m');
      const gamma = `c-gamma ${mark.toUpperCase()}`;
      await repo.create(env, draft(`${mark}-b`, { name: 'b-beta', tags: [tag] }));
      await repo.create(env, draft(`${mark}-a`, { name: 'a-alpha' }));
      await repo.create(env, draft(unique('x'), { name: gamma, tags: [tag, 'other'] }));
      const order = { orderBy: 'name', orderDirection: 'ASC' } as const;
      const names = async (filter: object, o: object = {}) => (await repo.list(env, filter, { ...order, ...o })).workflows.map((w) => w.name);
      expect(await names({ query: mark })).toEqual(['a-alpha', 'b-beta', gamma]);
      expect(await names({ query: mark }, { orderDirection: 'DESC' })).toEqual([gamma, 'b-beta', 'a-alpha']);
      expect(await names({ tags: [tag, 'nope'] })).toEqual(['b-beta', gamma]);
      const page = await repo.list(env, { query: mark }, { ...order, orderDirection: 'DESC' }, { offset: 1, limit: 1 });
      expect(page).toMatchObject({ totalCount: 3, workflows: [{ name: 'b-beta' }] });
    });
    it('syncs external workflows: keeps step ids, removes the unlisted, refuses an API workflow of the same identifier', async () => {
      const { repo, environments: [, env] } = await setup();
      const [kept, dropped, api] = [unique('kept'), unique('dropped'), unique('api')];
      const schemas = { controls: { type: 'object' }, outputs: { type: 'object', required: ['body'] } };
      const external = (id: string, steps = [{ ...step('s1'), schemas }]) => draft(id, { origin: 'external', steps });
      await repo.create(env, draft(api));
      const first = await repo.writeAll(env, 'external', [external(kept), external(dropped)], { prune: true });
      expect(first.workflows.map((w) => [w.workflowId, w.origin, w.steps[0].schemas])).toEqual([[kept, 'external', schemas], [dropped, 'external', schemas]]);
      const second = await repo.writeAll(env, 'external', [external(kept, [{ ...step('s1'), schemas }, { ...step('s2'), schemas }])], { prune: true });
      expect([first.created, second.created, second.removed]).toEqual([[kept, dropped], [], [dropped]]);
      expect(second.workflows[0].steps[0].id).toBe(first.workflows[0].steps[0].id);
      expect(await repo.find(env, dropped)).toBeNull();
      await expect(repo.writeAll(env, 'external', [external(api)], { prune: true })).rejects.toMatchObject({ code: 'CONFLICT' });
      expect((await repo.find(env, kept))?.steps.map((s) => s.stepId)).toEqual(['s1', 's2']);
      expect((await repo.find(env, api))?.origin).toBe('novu-cloud');
    });
    it('writes API workflows all or none: one naming a synced workflow leaves every other as it was', async () => {
      const { repo, environments: [, env] } = await setup();
      const [changed, added, synced] = [unique('changed'), unique('added'), unique('synced')];
      await repo.create(env, draft(changed, { name: 'before' }));
      await repo.writeAll(env, 'external', [draft(synced, { origin: 'external' })]);
      await expect(repo.writeAll(env, 'novu-cloud', [draft(changed, { name: 'after' }), draft(added), draft(synced)])).rejects.toMatchObject({
        code: 'CONFLICT',
        message: expect.stringMatching(/synced from a bridge/),
      });
      expect([(await repo.find(env, changed))?.name, await repo.find(env, added), (await repo.find(env, synced))?.origin]).toEqual(['before', null, 'external']);
      const written = await repo.writeAll(env, 'novu-cloud', [draft(changed, { name: 'after' }), draft(added)]);
      expect([written.created, written.removed, written.workflows.map((w) => [w.name, w.origin])]).toEqual([[added], [], [['after', 'novu-cloud'], [added, 'novu-cloud']]]);
      expect((await repo.find(env, synced))?.origin).toBe('external');
    });
  });
}
