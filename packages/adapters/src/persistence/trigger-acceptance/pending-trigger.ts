import type { AcceptOutcome, RunInline, TriggerAcceptance } from '@herald/domain';

/** The notification and inline job ids of a recipient whose step runs inline. */
export type InlineIds = { notificationId: string; inlineJobId: string };

/** A trigger waiting to be accepted, with what its caller waits on. */
export interface PendingTrigger {
  acceptance: TriggerAcceptance;
  /** Chosen here, so a retry can tell this trigger's own earlier commit from someone else's event. */
  eventId: string;
  runInline?: RunInline;
  /**
   * The notification and inline job ids of each recipient run inline (by internal subscriber id),
   * chosen once: a retry reuses them, so it can tell which of its outcomes an earlier commit wrote.
   */
  inlineIds: Map<string, InlineIds>;
  resolve(outcome: AcceptOutcome): void;
  reject(error: unknown): void;
}

/** A subscriber's key in a batch's maps and sets of subscribers: its environment and subscriberId. */
export const subscriberKey = (environmentId: string, subscriberId: string) => `${environmentId}/${subscriberId}`;
