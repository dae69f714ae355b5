import type { Severity, StepType } from './channel';
import type { DetailSource, DetailStatus, JobStatus, JsonObject } from './delivery';
import type { StepFilter } from './step-filter';

/** Filters of the activity log (spec operation 21); every given filter must match. */
export interface ActivityFilter {
  /** Any of these step types among the notification's channels. */
  channels?: string[];
  /** Workflows by internal id or trigger identifier. */
  templates?: string[];
  /** Recipients by email. */
  emails?: string[];
  /** Recipients by external subscriber id. */
  subscriberIds?: string[];
  severity?: Severity[];
  /** Any of its steps (jobs, or the step run inline) is in one of these statuses (a Herald extension). */
  statuses?: JobStatus[];
  transactionId?: string;
  /** Reached through this topic. */
  topicKey?: string;
  /** Reached through this topic subscription (its id or identifier). */
  subscriptionId?: string;
  /** Exact, order-insensitive match of the sorted keys. */
  contextKeys?: string[];
  /** Created at or after. */
  after?: Date;
  /** Created at or before. */
  before?: Date;
  /** Deprecated free search: a transactionId, or a recipient's subscriber id or email. */
  search?: string;
}

/**
 * The trigger a notification came from, with its topic fan-out's progress: how many recipients have
 * their notification so far, of how many at most.
 */
export interface TriggerProgress {
  transactionId: string;
  /** The topics it was triggered to; empty for a trigger to subscribers only. */
  topicKeys: string[];
  /** `fanning_out` while topic recipients are being expanded, then `fanned_out` (or `canceled`). */
  status: string;
  /** Notifications written for the trigger so far: its recipients expanded. */
  recipients: number;
  /**
   * `recipients` plus the topics' subscriptions not yet reached: an upper bound while it fans out
   * (exclusions, the actor, conditions and a subscriber in two topics are not taken off); equal to
   * `recipients` once it is done.
   */
  total: number;
  createdAt: Date;
  fannedOutAt: Date | null;
}

export interface ActivityPage {
  page: number;
  limit: number;
}

export const ACTIVITY_PAGE_DEFAULT = 10;
export const ACTIVITY_PAGE_MAX = 50;

export interface ActivityExecutionDetail {
  id: string;
  createdAt: Date;
  status: DetailStatus;
  source: DetailSource;
  detail: string;
  isRetry: boolean;
  isTest: boolean;
  providerId: string | null;
  raw: string | null;
}

/** What a channel step produced: an inbox row or a sent email, sms, chat or push message. */
export interface ActivityMessage {
  id: string;
  channel: string;
  providerId: string | null;
  status: string;
  destination: unknown;
  subject: string | null;
  body: string;
  createdAt: Date;
}

export interface ActivityJob {
  id: string;
  type: StepType;
  status: string;
  providerId: string | null;
  digest: JsonObject | null;
  payload: JsonObject;
  overrides: JsonObject;
  scheduleExtensionsCount: number;
  updatedAt: Date;
  step: { id: string; stepId: string; name: string; active: boolean; filters: StepFilter[] };
  /** Oldest first. */
  executionDetails: ActivityExecutionDetail[];
  message: ActivityMessage | null;
}

/** One trigger for one recipient, with its jobs in step order. */
export interface ActivityNotification {
  id: string;
  environmentId: string;
  transactionId: string;
  /** Internal id of the triggered workflow. */
  workflowId: string;
  subscriber: { id: string; subscriberId: string; firstName: string | null; lastName: string | null; email: string | null; phone: string | null };
  /** null only when the workflow row no longer exists. */
  workflow: { id: string; identifier: string; name: string; origin: string; payloadVariables: string[] } | null;
  channels: string[];
  payload: JsonObject;
  controls: JsonObject | null;
  to: JsonObject | null;
  tags: string[];
  topics: Array<{ _topicId: string; topicKey: string }>;
  severity: Severity;
  critical: boolean;
  contextKeys: string[];
  digestedNotificationId: string | null;
  createdAt: Date;
  updatedAt: Date;
  jobs: ActivityJob[];
}
