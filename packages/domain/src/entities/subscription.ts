import { DomainError, type FieldErrors } from '../errors';
import { validateJsonLogic, type JsonLogicRule } from '../rules/json-logic';
import type { Topic } from './topic';

/** At most this many subscriptions (subscriptions + deprecated subscriberIds) per create request. */
export const SUBSCRIPTIONS_PER_REQUEST_LIMIT = 100;
/** At most this many context entries on one subscription. */
export const SUBSCRIPTION_CONTEXT_LIMIT = 5;

/** A rule for one workflow, by trigger identifier or internal id. */
export interface WorkflowPreferenceRule {
  workflowId: string;
  enabled: boolean;
  condition?: JsonLogicRule;
}

/** A rule for every workflow listed by id or carrying one of the tags (an empty filter covers all). */
export interface GroupPreferenceRule {
  filter: { workflowIds?: string[]; tags?: string[] };
  enabled: boolean;
  condition?: JsonLogicRule;
}

export type SubscriptionPreferenceRule = WorkflowPreferenceRule | GroupPreferenceRule;

/** The accepted input forms: a workflow id string, a workflow rule, or a group filter rule. */
export type SubscriptionPreferenceInput =
  | string
  | { workflowId: string; enabled?: boolean; condition?: Record<string, unknown> }
  | { filter: { workflowIds?: string[]; tags?: string[] }; enabled?: boolean; condition?: Record<string, unknown> };

export interface SubscriberSummary {
  id: string;
  subscriberId: string;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  avatar: string | null;
}

export interface TopicSubscription {
  id: string;
  environmentId: string;
  /** Unique per environment. */
  identifier: string;
  name: string | null;
  /** Sorted `type:id` keys. */
  contextKeys: string[];
  preferences: SubscriptionPreferenceRule[];
  topic: Topic;
  subscriber: SubscriberSummary;
  createdAt: Date;
  updatedAt: Date;
}

export function isGroupRule(rule: SubscriptionPreferenceRule): rule is GroupPreferenceRule {
  return 'filter' in rule;
}

/**
 * The identifier a subscription gets when none is given: one per (topic, subscriber, context), so
 * subscribing the same subscriber again in the same context updates rather than duplicates.
 */
export function defaultSubscriptionIdentifier(topicKey: string, subscriberId: string, contextKeys: readonly string[]): string {
  const base = `tk_${topicKey}:si_${subscriberId}`;
  return contextKeys.length ? `${base}:ctx_${contextKeys.join(',')}` : base;
}

/** Normalises preference rules as written, validating each condition; throws a 422 naming the field. */
export function normaliseSubscriptionPreferences(input: readonly SubscriptionPreferenceInput[], field = 'preferences'): SubscriptionPreferenceRule[] {
  const errors: FieldErrors = {};
  const rules = input.map((item, i): SubscriptionPreferenceRule => {
    if (typeof item === 'string') {
      if (item.trim() === '') errors[`${field}[${i}]`] = { messages: ['must be a workflow id'], value: item };
      return { workflowId: item, enabled: true };
    }
    if (item.condition !== undefined) {
      const problems = validateJsonLogic(item.condition, `${field}[${i}].condition`);
      if (problems.length) errors[`${field}[${i}].condition`] = { messages: problems, value: item.condition };
    }
    const common = { enabled: item.enabled ?? true, ...(item.condition !== undefined ? { condition: item.condition } : {}) };
    if ('filter' in item) {
      const filter: GroupPreferenceRule['filter'] = {};
      if (item.filter.workflowIds) filter.workflowIds = item.filter.workflowIds;
      if (item.filter.tags) filter.tags = item.filter.tags;
      return { filter, ...common };
    }
    if (item.workflowId.trim() === '') errors[`${field}[${i}].workflowId`] = { messages: ['must not be empty'], value: item.workflowId };
    return { workflowId: item.workflowId, ...common };
  });
  if (Object.keys(errors).length) throw DomainError.validation(errors);
  return rules;
}

/** Workflow references of the rules, with the field each came from, for existence checks. */
export function referencedWorkflows(rules: readonly SubscriptionPreferenceRule[], field = 'preferences'): Array<{ field: string; workflowId: string }> {
  return rules.flatMap((rule, i) =>
    isGroupRule(rule)
      ? (rule.filter.workflowIds ?? []).map((workflowId, j) => ({ field: `${field}[${i}].filter.workflowIds[${j}]`, workflowId }))
      : [{ field: `${field}[${i}]`, workflowId: rule.workflowId }],
  );
}
