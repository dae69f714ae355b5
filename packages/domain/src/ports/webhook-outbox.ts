import { token } from '../shared/token';
import type { WebhookAttempt, WebhookAttemptResult, WebhookDelivery, WebhookEventDraft } from '../entities/webhook';

export const WebhookOutbox = token<WebhookOutbox>('WebhookOutbox');

/** Which attempts to send again: one attempt's event, or every event an endpoint was sent in a time range. */
export type WebhookReplay = { attemptId: string } | { since: Date; until: Date };

export interface WebhookAttemptQuery {
  limit: number;
  /** Only attempts older than this one (the last id of the previous page). */
  before?: string;
}

/**
 * Events on their way to webhook endpoints. The SQL adapter also writes events itself, in the
 * transaction of each change they describe (database triggers); `append` is the same write for a
 * caller that has the events in hand. Each event becomes one delivery per enabled endpoint of its
 * environment whose filter takes its type, and is delivered at least once, with its id stable.
 */
export interface WebhookOutbox {
  /** Writes events (and their deliveries) in one transaction; returns how many deliveries that made. */
  append(events: WebhookEventDraft[]): Promise<number>;
  /**
   * Claims up to `limit` due deliveries of enabled endpoints for `leaseMs`: per endpoint and ordering
   * key, only the oldest delivery still pending, so events with one key arrive in order. A claim
   * another process holds is skipped; one whose lease lapsed (a crash) is claimed again.
   */
  claim(limit: number, leaseMs: number): Promise<WebhookDelivery[]>;
  /**
   * Records attempts: logs each, finishes or reschedules its delivery, and marks its endpoint healthy
   * or failing. Endpoints failing since `disableIfFailingSince` or earlier are disabled; their ids are returned.
   */
  record(results: WebhookAttemptResult[], disableIfFailingSince: Date): Promise<{ disabled: string[] }>;
  /** An endpoint's attempts, newest first; empty for another environment's endpoint. */
  attempts(environmentId: string, endpointId: string, query: WebhookAttemptQuery): Promise<WebhookAttempt[]>;
  /** Queues the chosen events to the endpoint again, due now, keeping their ids; how many were queued. */
  replay(environmentId: string, endpointId: string, which: WebhookReplay): Promise<number>;
  /** When the next pending delivery of an enabled endpoint is due; null when none is pending. */
  nextDueAt(): Promise<Date | null>;
}
