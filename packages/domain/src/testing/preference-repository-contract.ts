import { describe, expect, it } from 'vitest';
import type { PreferenceRepository } from '../ports/preference-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';
import type { WorkflowRepository } from '../ports/workflow-repository';
import { draft } from './workflow-repository-contract';

export interface PreferenceRepositoryFixture {
  preferences: PreferenceRepository;
  /** Write the subscribers and workflows the preferences see. */
  subscribers: SubscriberRepository;
  workflows: WorkflowRepository;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}


/** The behaviour every PreferenceRepository has; run against the in-memory double and the SQL adapter. */
export function preferenceRepositoryContract(name: string, setup: () => Promise<PreferenceRepositoryFixture>): void {
  describe(`PreferenceRepository contract: ${name}`, () => {
    it("lists the environment's workflows oldest first, as the settings preferences need", async () => {
      const { preferences, workflows, environments: [env, other] } = await setup();
      const first = await workflows.create(env, draft('first', { critical: true, tags: ['a'], severity: 'high', data: { team: 'x' }, preferences: { all: { enabled: false } } }));
      await workflows.create(env, draft('second'));
      await workflows.create(other, draft('elsewhere'));
      const listed = await preferences.listWorkflowSettings(env);
      expect(listed.map((w) => w.identifier)).toEqual(['first', 'second']);
      expect(listed[0]).toEqual({
        id: first.id,
        identifier: 'first',
        name: 'first',
        critical: true,
        tags: ['a'],
        severity: 'high',
        data: { team: 'x' },
        defaults: { all: { enabled: false } },
        updatedAt: first.updatedAt,
      });
      await workflows.delete(env, first.id);
      expect((await preferences.listWorkflowSettings(env)).map((w) => w.identifier)).toEqual(['second']);
    });

    it('finds one workflow by trigger identifier or internal id, in its environment only', async () => {
      const { preferences, workflows, environments: [env, other] } = await setup();
      const created = await workflows.create(env, draft('alerts'));
      expect(await preferences.findWorkflowSettings(env, 'alerts')).toMatchObject({ id: created.id, identifier: 'alerts' });
      expect(await preferences.findWorkflowSettings(env, created.id)).toMatchObject({ identifier: 'alerts' });
      expect(await preferences.findWorkflowSettings(other, 'alerts')).toBeNull();
      expect(await preferences.findWorkflowSettings(other, created.id)).toBeNull();
      expect(await preferences.findWorkflowSettings(env, 'unknown')).toBeNull();
    });

    it("reads a subscriber's levels: none at first, null for an unknown subscriber or one of another environment", async () => {
      const { preferences, subscribers, environments: [env, other] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      expect(await preferences.findSubscriberPreferences(env, 'ada')).toEqual({ global: null, perWorkflow: new Map(), schedule: null });
      expect(await preferences.findSubscriberPreferences(env, 'nobody')).toBeNull();
      expect(await preferences.findSubscriberPreferences(other, 'ada')).toBeNull();
      expect(await preferences.mergeSubscriberPreference(other, 'ada', null, { email: false })).toBe(false);
      expect(await preferences.mergeSubscriberPreference(env, 'nobody', null, { email: false })).toBe(false);
    });

    it('merges channel switches into the global level and into one per workflow, creating each when missing', async () => {
      const { preferences, subscribers, workflows, environments: [env] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const workflow = await workflows.create(env, draft('alerts'));
      expect(await preferences.mergeSubscriberPreference(env, 'ada', null, { email: false, sms: true })).toBe(true);
      expect(await preferences.mergeSubscriberPreference(env, 'ada', null, { sms: false, push: true })).toBe(true);
      expect(await preferences.mergeSubscriberPreference(env, 'ada', workflow.id, { in_app: false })).toBe(true);
      const levels = await preferences.findSubscriberPreferences(env, 'ada');
      expect(levels!.global).toEqual({ enabled: null, channels: { email: false, sms: false, push: true } });
      expect([...levels!.perWorkflow]).toEqual([[workflow.id, { enabled: null, channels: { in_app: false } }]]);
    });

    it("stores a subscriber's delivery schedule, keeps their own against a default, removes it with null or with the subscriber", async () => {
      const { preferences, subscribers, environments: [env, other] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const week = { isEnabled: true, weeklySchedule: { monday: { isEnabled: true, hours: [{ start: '09:00 AM', end: '05:00 PM' }] } } };
      expect(await preferences.setSchedule(env, 'ada', week, true)).toBe(true);
      expect(await preferences.setSchedule(env, 'ada', { isEnabled: false }, true)).toBe(false);
      expect((await preferences.findSubscriberPreferences(env, 'ada'))!.schedule).toEqual(week);
      expect(await preferences.setSchedule(env, 'ada', { isEnabled: false })).toBe(true);
      expect((await preferences.findSubscriberPreferences(env, 'ada'))!.schedule).toEqual({ isEnabled: false });
      expect(await preferences.setSchedule(other, 'ada', week)).toBe(false);
      expect(await preferences.setSchedule(env, 'nobody', week)).toBe(false);
      expect(await preferences.setSchedule(env, 'ada', null)).toBe(true);
      expect((await preferences.findSubscriberPreferences(env, 'ada'))!.schedule).toBeNull();
      await preferences.setSchedule(env, 'ada', week);
      await subscribers.delete(env, 'ada');
      await subscribers.insert(env, { subscriberId: 'ada' });
      expect((await preferences.findSubscriberPreferences(env, 'ada'))!.schedule).toBeNull();
    });

    it('drops the levels of a deleted workflow, and every level of a deleted subscriber', async () => {
      const { preferences, subscribers, workflows, environments: [env] } = await setup();
      await subscribers.insert(env, { subscriberId: 'ada' });
      const [kept, doomed] = [await workflows.create(env, draft('kept')), await workflows.create(env, draft('doomed'))];
      for (const id of [null, kept.id, doomed.id]) await preferences.mergeSubscriberPreference(env, 'ada', id, { email: false });
      await workflows.delete(env, doomed.id);
      expect([...(await preferences.findSubscriberPreferences(env, 'ada'))!.perWorkflow.keys()]).toEqual([kept.id]);
      await subscribers.delete(env, 'ada');
      await subscribers.insert(env, { subscriberId: 'ada' });
      expect(await preferences.findSubscriberPreferences(env, 'ada')).toEqual({ global: null, perWorkflow: new Map(), schedule: null });
    });
  });
}
