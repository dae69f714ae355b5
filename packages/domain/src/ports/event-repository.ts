import type { DeliveryWorkflow, TriggerAcceptance } from '../entities/delivery';

export const EventRepository = Symbol.for('EventRepository');

export type AcceptOutcome = { accepted: true; eventId: string; notifications: number } | { accepted: false; reason: 'duplicate_transaction' };

/** A chunk of topic recipients, keyset-paginated by internal subscriber id. */
export interface FanoutCandidate {
  subscriberId: string;
  subscriber: Record<string, unknown>;
  subscriptionId: string;
  topicId: string;
  topicKey: string;
  /** The subscription's preference rules (raw JSON as stored). */
  preferences: unknown[];
}

export interface FanoutEvent {
  id: string;
  environmentId: string;
  workflow: DeliveryWorkflow;
  payload: Record<string, unknown>;
  contextKeys: string[];
  topics: Array<{ topicKey: string; exclude: string[] }>;
  actorSubscriberId: string | null;
  /** Last internal subscriber id already expanded; null before the first chunk. */
  cursor: string | null;
  status: string;
}

export interface EventRepository {
  /** The workflow with its steps in order, by trigger identifier or internal id; null when unknown. */
  findWorkflow(environmentId: string, identifier: string): Promise<DeliveryWorkflow | null>;
  /**
   * In ONE transaction: upserts the subscriber objects, inserts the event (unique per transactionId),
   * one notification per direct recipient with one job per active step, and the queue work for them
   * and for the topic fan-out. A reused transactionId commits nothing.
   */
  accept(acceptance: TriggerAcceptance): Promise<AcceptOutcome>;
  /** The event as fan-out needs it; null when unknown. */
  loadFanout(eventId: string): Promise<FanoutEvent | null>;
  /** The next topic recipients after `cursor`, excluding excluded ids and the actor; at most `limit`. */
  fanoutCandidates(event: FanoutEvent, limit: number): Promise<FanoutCandidate[]>;
  /**
   * In ONE transaction: inserts notifications (at most one per event and subscriber, ever) and their
   * jobs for `accepted`, queues their work, and moves the event's cursor (and marks it done when `done`).
   */
  commitFanoutChunk(event: FanoutEvent, accepted: FanoutCandidate[], cursor: string | null, done: boolean): Promise<number>;
}
