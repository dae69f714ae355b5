import { isWorkflowReference } from '../../entities/preferences';
import { isGroupRule, type SubscriptionPreferenceInput, type TopicSubscription } from '../../entities/subscription';
import { DomainError } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import type { TopicRepository } from '../../ports/topic-repository';
import type { JsonLogicRule } from '../../rules/json-logic';
import type { WorkflowSubscriptionPreference } from '../../rules/subscription-allows';
import { SubscribeToTopic } from '../topics/subscribe-to-topic';
import { WorkflowCatalog, type SubscriptionDetails } from '../topics/subscription-details';
import { UnsubscribeFromTopic } from '../topics/unsubscribe-from-topic';
import { UpdateTopicSubscription } from '../topics/update-topic-subscription';
import type { InboxCaller } from './inbox-channels';

const notFound = (identifier: string) => DomainError.notFound('SUBSCRIPTION_NOT_FOUND', 'Subscription', identifier);
const PAGE = { limit: 100, orderDirection: 'ASC' as const, orderBy: 'createdAt' as const, includeCursor: false };

/**
 * Topic subscriptions from the Inbox (`/v1/inbox/topics...`): the session's subscriber lists,
 * creates, changes and removes their own subscriptions, never another subscriber's (one they do not
 * own reads as not found), with the same rules and statements as the API's topic routes.
 */
export class InboxSubscriptions {
  constructor(
    private readonly topics: TopicRepository,
    private readonly preferences: PreferenceRepository,
  ) {}

  /** The caller's subscriptions to a topic (none when the topic does not exist). */
  async list(caller: InboxCaller, topicKey: string): Promise<SubscriptionDetails[]> {
    const owned: TopicSubscription[] = [];
    let after: string | undefined;
    do {
      const page = await this.topics.searchSubscriptions(caller.environmentId, { topicKey, subscriberId: caller.subscriberId }, { ...PAGE, after });
      owned.push(...page.data);
      after = page.next ?? undefined;
    } while (after);
    return this.catalog(caller).describe(owned);
  }

  /**
   * One of the caller's subscriptions, its preferences narrowed to the workflows named or tagged
   * when either is given; null when it is not theirs or does not exist.
   */
  async get(caller: InboxCaller, topicKey: string, identifier: string, only: { workflowIds?: string[]; tags?: string[] } = {}): Promise<SubscriptionDetails | null> {
    const found = await this.topics.findSubscription(caller.environmentId, topicKey, identifier);
    if (!found || found.subscriber.subscriberId !== caller.subscriberId) return null;
    const [details] = await this.catalog(caller).describe([found]);
    if (!only.workflowIds?.length && !only.tags?.length) return details;
    const wanted = (p: WorkflowSubscriptionPreference) =>
      Boolean(only.workflowIds?.some((id) => isWorkflowReference(p.workflow, id)) || only.tags?.some((tag) => p.workflow.tags.includes(tag)));
    return { ...details, preferences: details.preferences.filter(wanted) };
  }

  /** Subscribes the caller (an empty identifier gets the default one); the topic is created when missing. */
  async create(caller: InboxCaller, topicKey: string, input: { identifier?: string; name?: string; topicName?: string; preferences?: SubscriptionPreferenceInput[] }): Promise<SubscriptionDetails> {
    const result = await new SubscribeToTopic(this.topics, this.preferences).execute({
      environmentId: caller.environmentId,
      topicKey,
      name: input.topicName,
      subscriptions: [{ subscriberId: caller.subscriberId, ...(input.identifier ? { identifier: input.identifier } : {}), ...(input.name !== undefined ? { name: input.name } : {}) }],
      preferences: input.preferences,
    });
    const [error] = result.errors;
    if (error) throw new DomainError(error.code === 'SUBSCRIBER_NOT_FOUND' ? 'SUBSCRIBER_NOT_FOUND' : 'CONFLICT', error.message);
    return result.subscriptions[0];
  }

  async update(caller: InboxCaller, topicKey: string, identifier: string, changes: { name?: string; preferences?: SubscriptionPreferenceInput[] }): Promise<SubscriptionDetails> {
    if (!(await this.get(caller, topicKey, identifier))) throw notFound(identifier);
    return new UpdateTopicSubscription(this.topics, this.preferences).execute({ environmentId: caller.environmentId, topicKey, identifier, ...changes });
  }

  async remove(caller: InboxCaller, topicKey: string, identifier: string): Promise<void> {
    if (!(await this.get(caller, topicKey, identifier))) throw notFound(identifier);
    await new UnsubscribeFromTopic(this.topics).execute({ environmentId: caller.environmentId, topicKey, subscriptions: [{ identifier }] });
  }

  /**
   * Turns one workflow on or off (with an optional condition) for one of the caller's subscriptions,
   * named by its identifier or id: the rule naming that workflow is replaced, group rules stay.
   * Returns the workflow's preference as it now applies.
   */
  async setWorkflowPreference(caller: InboxCaller, subscription: string, workflowId: string, change: { enabled?: boolean; condition?: JsonLogicRule }): Promise<WorkflowSubscriptionPreference & { subscriptionId: string }> {
    const owned = await this.ownedByReference(caller, subscription);
    const workflow = await this.preferences.findWorkflowSettings(caller.environmentId, workflowId);
    if (!workflow) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', workflowId);
    const kept = owned.preferences.filter((rule) => isGroupRule(rule) || !isWorkflowReference(workflow, rule.workflowId));
    const rule = { workflowId: workflow.identifier, enabled: change.enabled ?? true, ...(change.condition !== undefined ? { condition: change.condition } : {}) };
    const details = await new UpdateTopicSubscription(this.topics, this.preferences).execute({
      environmentId: caller.environmentId,
      topicKey: owned.topic.key,
      identifier: owned.identifier,
      preferences: [...kept, rule] as SubscriptionPreferenceInput[],
    });
    const applied = details.preferences.find((p) => p.workflow.id === workflow.id) ?? { workflow, enabled: rule.enabled };
    return { ...applied, subscriptionId: owned.id };
  }

  private async ownedByReference(caller: InboxCaller, reference: string): Promise<TopicSubscription> {
    let after: string | undefined;
    do {
      const page = await this.topics.searchSubscriptions(caller.environmentId, { subscriberId: caller.subscriberId }, { ...PAGE, after });
      const found = page.data.find((s) => s.identifier === reference || s.id === reference);
      if (found) return found;
      after = page.next ?? undefined;
    } while (after);
    throw notFound(reference);
  }

  private catalog(caller: InboxCaller): WorkflowCatalog {
    return new WorkflowCatalog(this.preferences, caller.environmentId);
  }
}
