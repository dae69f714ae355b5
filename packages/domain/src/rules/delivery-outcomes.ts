import { isChannelType } from '../entities/channel';
import type { ExecutionDetailDraft } from '../entities/delivery';
import type { JobOutcome } from '../ports/job-repository';

export type DeliveryOutcome = 'sent' | 'skipped' | 'failed' | 'retried' | 'failed_over';

/** One increment of herald_deliveries_total. */
export interface DeliveryCount {
  channel: string;
  provider: string;
  outcome: DeliveryOutcome;
  /** Why a delivery was skipped (a bounded code); empty otherwise. */
  reason: string;
}

/** Skip details the engine writes, by the reason code metrics report. Unknown wording counts as `other`. */
const SKIP_REASONS: Array<[RegExp, string]> = [
  [/^skipped: skip condition/, 'skip_condition'],
  [/^skipped: condition false/, 'step_filter'],
  [/^skipped: preference/, 'preference'],
  [/\bhas no\b/, 'no_destination'],
];

export function skipReason(details: readonly ExecutionDetailDraft[]): string {
  const text = details.find((d) => d.detail.startsWith('skipped'))?.detail ?? details[0]?.detail ?? '';
  return SKIP_REASONS.find(([re]) => re.test(text))?.[1] ?? 'other';
}

/** The provider attempts of an outcome: its execution details that name a provider. */
export function providerAttempts(outcome: JobOutcome): ExecutionDetailDraft[] {
  return outcome.details.filter((d) => d.providerId);
}

/**
 * What one recorded step run means for delivery counters, for channel steps only. The step itself
 * counts once as sent, skipped or failed (a step that runs again later counts when it ends). Each
 * failed provider attempt that is followed by another counts as retried (same provider, in this run
 * or, for a step that runs again later, in the next) or failed_over (another provider took over).
 * Generic over the details: it holds however the channel handler spreads attempts over runs.
 */
export function deliveryCounts(outcome: JobOutcome): DeliveryCount[] {
  const channel = outcome.job.step.type;
  if (!isChannelType(channel)) return [];
  const counts: DeliveryCount[] = [];
  const attempts = providerAttempts(outcome);
  attempts.forEach((attempt, i) => {
    if (attempt.status !== 'Failed') return;
    const next = attempts[i + 1];
    const provider = attempt.providerId!;
    if (next) counts.push({ channel, provider, outcome: next.providerId === provider ? 'retried' : 'failed_over', reason: '' });
    else if (outcome.status === 'delayed') counts.push({ channel, provider, outcome: 'retried', reason: '' });
  });
  const provider = outcome.providerId ?? attempts[attempts.length - 1]?.providerId ?? 'none';
  if (outcome.status === 'completed') counts.push({ channel, provider, outcome: 'sent', reason: '' });
  else if (outcome.status === 'failed') counts.push({ channel, provider, outcome: 'failed', reason: '' });
  else if (outcome.status === 'skipped') counts.push({ channel, provider, outcome: 'skipped', reason: skipReason(outcome.details) });
  return counts;
}
