import type { WorkflowSettings } from '../../entities/preferences';
import { referencedWorkflows, type SubscriptionPreferenceRule, type TopicSubscription } from '../../entities/subscription';
import { isWorkflowReference } from '../../entities/preferences';
import { DomainError, type FieldErrors } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import { describeSubscriptionPreferences, type WorkflowSubscriptionPreference } from '../../rules/subscription-allows';

/** A subscription with its rules as they apply to the environment's workflows. */
export interface SubscriptionDetails {
  subscription: TopicSubscription;
  preferences: WorkflowSubscriptionPreference[];
}

/** Loads the environment's workflows once, and only when some rule needs them. */
export class WorkflowCatalog {
  private loaded?: Promise<WorkflowSettings[]>;

  constructor(
    private readonly preferences: PreferenceRepository,
    private readonly environmentId: string,
  ) {}

  all(): Promise<WorkflowSettings[]> {
    this.loaded ??= this.preferences.listWorkflowSettings(this.environmentId);
    return this.loaded;
  }

  /** Rejects rules naming a workflow the environment does not have, naming the field. */
  async assertReferencesExist(rules: readonly SubscriptionPreferenceRule[]): Promise<void> {
    const references = referencedWorkflows(rules);
    if (!references.length) return;
    const workflows = await this.all();
    const errors: FieldErrors = {};
    for (const { field, workflowId } of references) {
      if (!workflows.some((w) => isWorkflowReference(w, workflowId))) {
        errors[field] = { messages: [`workflow '${workflowId}' was not found`], value: workflowId };
      }
    }
    if (Object.keys(errors).length) throw DomainError.validation(errors);
  }

  async describe(subscriptions: TopicSubscription[]): Promise<SubscriptionDetails[]> {
    const needed = subscriptions.some((s) => s.preferences.length);
    const workflows = needed ? await this.all() : [];
    return subscriptions.map((subscription) => ({
      subscription,
      preferences: describeSubscriptionPreferences(subscription.preferences, workflows),
    }));
  }
}
