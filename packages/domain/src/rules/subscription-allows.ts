import { isWorkflowReference, type WorkflowSettings } from '../entities/preferences';
import { isGroupRule, type SubscriptionPreferenceRule } from '../entities/subscription';
import { evaluateJsonLogic, type JsonLogicRule } from './json-logic';

export type SubscriptionWorkflow = Pick<WorkflowSettings, 'id' | 'identifier' | 'tags'>;

/** What a subscription condition is evaluated against at fan-out. */
export interface SubscriptionConditionData {
  payload: Record<string, unknown>;
  subscriber: Record<string, unknown>;
  context: Record<string, unknown>;
}

export interface SubscriptionDecision {
  allowed: boolean;
  reason?: string;
}

function covers(rule: SubscriptionPreferenceRule, workflow: SubscriptionWorkflow): boolean {
  if (!isGroupRule(rule)) return isWorkflowReference(workflow, rule.workflowId);
  const { workflowIds, tags } = rule.filter;
  if (!workflowIds?.length && !tags?.length) return true;
  return Boolean(workflowIds?.some((id) => isWorkflowReference(workflow, id)) || tags?.some((tag) => workflow.tags.includes(tag)));
}

/**
 * The rule that decides a workflow: a rule naming the workflow beats a group filter; among rules of
 * the same kind the later one wins. undefined when no rule covers the workflow.
 */
export function decidingRule(rules: readonly SubscriptionPreferenceRule[], workflow: SubscriptionWorkflow): SubscriptionPreferenceRule | undefined {
  let decided: SubscriptionPreferenceRule | undefined;
  for (const rule of rules) {
    if (!covers(rule, workflow)) continue;
    if (!decided || isGroupRule(decided) || !isGroupRule(rule)) decided = rule;
  }
  return decided;
}

/**
 * Whether a topic subscription receives a workflow at fan-out. No rules: every workflow. With rules:
 * the deciding rule's `enabled` and condition; a workflow no rule covers is received only when no
 * rule enables anything (rules that only disable are exclusions; any enabling rule makes an allow-list).
 * A condition that throws counts as false, and the reason says why.
 */
export function subscriptionAllows(
  rules: readonly SubscriptionPreferenceRule[],
  workflow: SubscriptionWorkflow,
  data: SubscriptionConditionData,
): SubscriptionDecision {
  const rule = decidingRule(rules, workflow);
  if (!rule) {
    return rules.some((r) => r.enabled)
      ? { allowed: false, reason: `no preference of the subscription covers workflow '${workflow.identifier}'` }
      : { allowed: true };
  }
  if (!rule.enabled) return { allowed: false, reason: `workflow '${workflow.identifier}' is disabled for this subscription` };
  const outcome = evaluateJsonLogic(rule.condition, data);
  if (outcome.matched) return { allowed: true };
  return { allowed: false, reason: outcome.error ?? `the subscription's condition for workflow '${workflow.identifier}' is not met` };
}

export interface WorkflowSubscriptionPreference {
  workflow: WorkflowSettings;
  enabled: boolean;
  condition?: JsonLogicRule;
}

/** The rules as they apply, one entry per workflow some rule decides (for presenting a subscription). */
export function describeSubscriptionPreferences(
  rules: readonly SubscriptionPreferenceRule[],
  workflows: readonly WorkflowSettings[],
): WorkflowSubscriptionPreference[] {
  if (!rules.length) return [];
  return workflows.flatMap((workflow) => {
    const rule = decidingRule(rules, workflow);
    if (!rule) return [];
    return [{ workflow, enabled: rule.enabled, ...(rule.condition !== undefined ? { condition: rule.condition } : {}) }];
  });
}
