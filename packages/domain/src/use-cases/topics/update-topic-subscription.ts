import { normaliseSubscriptionPreferences, type SubscriptionPreferenceInput } from '../../entities/subscription';
import { DomainError } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import type { TopicRepository } from '../../ports/topic-repository';
import { WorkflowCatalog, type SubscriptionDetails } from './subscription-details';

export interface UpdateTopicSubscriptionInput {
  environmentId: string;
  topicKey: string;
  identifier: string;
  name?: string;
  /** Replaces the stored rules when given. */
  preferences?: SubscriptionPreferenceInput[];
}

export class UpdateTopicSubscription {
  constructor(
    private readonly topics: TopicRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  async execute(input: UpdateTopicSubscriptionInput): Promise<SubscriptionDetails> {
    const catalog = new WorkflowCatalog(this.preferences, input.environmentId);
    const rules = input.preferences && normaliseSubscriptionPreferences(input.preferences);
    if (rules) await catalog.assertReferencesExist(rules);
    const updated = await this.topics.updateSubscription(input.environmentId, input.topicKey, input.identifier, {
      name: input.name,
      preferences: rules,
    });
    if (!updated) throw DomainError.notFound('SUBSCRIPTION_NOT_FOUND', 'Subscription', input.identifier);
    const [details] = await catalog.describe([updated]);
    return details;
  }
}
