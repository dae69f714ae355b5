import type { ChannelType } from '../../entities/channel';
import type { DeliverySchedule } from '../../entities/delivery-schedule';
import { matchesCriticality, type PreferenceCriticality, type WorkflowSettings } from '../../entities/preferences';
import { DomainError } from '../../errors';
import type { PreferenceRepository, SubscriberPreferences } from '../../ports/preference-repository';
import { resolvePreferences, type ResolvedPreferences } from '../../rules/resolve-preferences';

export interface SubscriberPreferencesView {
  /** `schedule`: the subscriber's delivery schedule, when they have one. */
  global: { enabled: boolean; channels: Record<ChannelType, boolean>; schedule?: DeliverySchedule };
  /** One entry per workflow that passes the criticality filter. */
  workflows: Array<ResolvedPreferences & { workflow: WorkflowSettings }>;
}

/** Resolves every level into the view the preferences API returns. */
export function buildSubscriberPreferencesView(
  workflows: readonly WorkflowSettings[],
  stored: SubscriberPreferences,
  criticality: PreferenceCriticality,
): SubscriberPreferencesView {
  // The global view is the resolution for a workflow with no defaults of its own.
  const global = resolvePreferences({ workflow: { critical: false, defaults: {} }, global: stored.global });
  return {
    global: { enabled: global.enabled, channels: global.channels, ...(stored.schedule ? { schedule: stored.schedule } : {}) },
    workflows: workflows
      .filter((workflow) => matchesCriticality(workflow, criticality))
      .map((workflow) => ({
        workflow,
        ...resolvePreferences({ workflow, global: stored.global, perWorkflow: stored.perWorkflow.get(workflow.id) }),
      })),
  };
}

export class GetSubscriberPreferences {
  constructor(private readonly preferences: PreferenceRepository) {}

  async execute(environmentId: string, subscriberId: string, criticality: PreferenceCriticality = 'nonCritical'): Promise<SubscriberPreferencesView> {
    const [stored, workflows] = await Promise.all([
      this.preferences.findSubscriberPreferences(environmentId, subscriberId),
      this.preferences.listWorkflowSettings(environmentId),
    ]);
    if (!stored) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return buildSubscriberPreferencesView(workflows, stored, criticality);
  }
}
