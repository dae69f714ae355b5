import { token } from '../shared/token';
import type { JsonObject } from '../entities/delivery';

export const DigestRepository = token<DigestRepository>('DigestRepository');

/** A job that reached a digest step, with the digest it would open. */
export interface DigestEntry {
  jobId: string;
  notificationId: string;
  environmentId: string;
  /** The subscriber's internal id. */
  subscriberId: string;
  workflowStepId: string;
  /** The value of the step's digestKey in this job's payload; '' without one. */
  digestKey: string;
  /** When a digest this job opens closes. */
  closesAt: Date;
  /** Backoff digests: a digest this job opens closes at once unless an event of its key came after this time. */
  backoffSince: Date | null;
  /** The spec's DigestMetadata, stored on the leader job when the digest closes. */
  metadata: JsonObject;
}

/** One event of a closed digest, as later steps read it (steps.<stepId>.events). */
export interface DigestEvent {
  id: string;
  transactionId: string;
  time: string;
  payload: JsonObject;
}

export type DigestPlace =
  | { role: 'member'; digestId: string; leaderNotificationId: string }
  | { role: 'leader'; digestId: string; closesAt: Date; status: 'open' }
  | { role: 'leader'; digestId: string; closesAt: Date; status: 'closed'; events: DigestEvent[] };

export interface DigestRepository {
  /**
   * Places each job's event in the one open digest of its (subscriber, step, key), opening one led by
   * the job when none is open; joins and closes are atomic, so no event is in two digests or in
   * none, across processes. A job already placed keeps its place (safe to run twice). A leader whose
   * digest is due closes it and gets its events, oldest first; every later event opens the next one.
   * Returns one place per entry, in order.
   */
  enter(entries: DigestEntry[]): Promise<DigestPlace[]>;
}
