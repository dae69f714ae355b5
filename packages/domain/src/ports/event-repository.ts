import type { DeliveryWorkflow, TriggerAcceptance } from '../entities/delivery';
import type { FanoutLane } from '../rules/fanout-lanes';

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
  /** Progress: the ranges of internal subscriber ids, each with the last id already expanded. */
  lanes: FanoutLane[];
  status: string;
  /** The trigger's W3C traceparent, when it was traced. */
  traceContext?: string | null;
}

/** Progress of one chunk: from the lane as it was when the chunk was read. */
export type FanoutProgress = { from: FanoutLane } & ({ index: number; lane: FanoutLane } | { split: FanoutLane[] });

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
  /** The lane's next topic recipients in id order, excluding excluded ids and the actor; at most `limit`. */
  fanoutCandidates(event: FanoutEvent, lane: FanoutLane, limit: number): Promise<FanoutCandidate[]>;
  /**
   * In ONE transaction: inserts notifications (at most one per event and subscriber, ever) and their
   * jobs for `accepted`, queues their work, and records the progress: lane `index` becomes `lane`, or
   * (`split`) the only lane is replaced by several. The event is fanned out when every lane is done.
   * Throws, committing nothing, when the stored progress is no longer what this run started from
   * (another run of the same fan-out moved it); queued work is retried from the stored progress.
   */
  commitFanoutChunk(event: FanoutEvent, accepted: FanoutCandidate[], progress: FanoutProgress): Promise<number>;
}
