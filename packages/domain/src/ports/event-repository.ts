import { token } from '../shared/token';
import type { DeliveryWorkflow, TriggerAcceptance } from '../entities/delivery';
import type { FanoutLane } from '../rules/fanout-lanes';
import type { JobOutcome } from './job-repository';
import type { InlineRecipient, RunInline } from '../use-cases/delivery/inline-step';

export const EventRepository = token<EventRepository>('EventRepository');

export type AcceptOutcome =
  | {
      accepted: true;
      eventId: string;
      notifications: number;
      /** Outcomes of the step run inline (see `accept`) that were written, with their notifications. */
      inline: JobOutcome[];
    }
  | { accepted: false; reason: 'duplicate_transaction' };

/**
 * A chunk of topic recipients, keyset-paginated by internal subscriber id. Its ids are assigned when
 * read, so a step run inline can name them; subscription conditions see `recipient` too.
 */
export interface FanoutCandidate extends InlineRecipient {
  subscriberId: string;
  subscriptionId: string;
  topicId: string;
  topicKey: string;
  /** The subscription's preference rules (raw JSON as stored). */
  preferences: unknown[];
}

export interface FanoutEvent {
  id: string;
  environmentId: string;
  transactionId: string;
  overrides: Record<string, unknown>;
  workflow: DeliveryWorkflow;
  payload: Record<string, unknown>;
  contextKeys: string[];
  topics: Array<{ topicKey: string; exclude: string[] }>;
  actorSubscriberId: string | null;
  /**
   * Whether the trigger also named subscribers directly: each has its notification for the event
   * already, so a chunk may reach one again through a topic (it is skipped). Unknown (stored before
   * this was kept) counts as true.
   */
  directRecipients: boolean;
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
   * With `runInline` (the workflow starts with its `inlineStep`), the direct recipients that exist are
   * read first, as the trigger's subscriber objects will leave them (an implementation may leave some
   * out, e.g. one whose objects it cannot apply ahead, and must leave out one it could not write as
   * the step saw it), and the step is run for them: as with a fan-out chunk, its record and
   * message are written with the notification, it gets no job row and no queue message, and the
   * next step is queued (or, when it halted, the rest canceled). The others get jobs for every step.
   */
  accept(acceptance: TriggerAcceptance, runInline?: RunInline): Promise<AcceptOutcome>;
  /** The event as fan-out needs it; null when unknown. */
  loadFanout(eventId: string): Promise<FanoutEvent | null>;
  /** The lane's next topic recipients in id order, excluding excluded ids and the actor; at most `limit`. */
  fanoutCandidates(event: FanoutEvent, lane: FanoutLane, limit: number): Promise<FanoutCandidate[]>;
  /**
   * Whether the lane's remaining range holds more than `count` subscriptions to the event's topics.
   * An upper bound of its recipients (exclusions, the actor and a subscriber in two topics are not
   * taken off): false means they fit in one chunk of `count`.
   */
  fanoutExceeds(event: FanoutEvent, lane: FanoutLane, count: number): Promise<boolean>;
  /**
   * In ONE transaction: inserts notifications (at most one per event and subscriber, ever) and their
   * jobs for `accepted`, queues their work, and records the progress: lane `index` becomes `lane`, or
   * (`split`) the only lane is replaced by several. The event is fanned out when every lane is done.
   * `inline` are the results of the workflow's first step, run before the write for these candidates
   * (notification ids as assigned in `accepted`): that step gets no job row and no queue message; its
   * record and message are written with the notification, and the next step is queued (or, when it
   * halted, the rest canceled). Returns the ids of the notifications written: a recipient who already
   * had one for this event (a direct recipient also in the topic) gets none, and its inline result is
   * dropped.
   * Throws, committing nothing, when the stored progress is no longer what this run started from
   * (another run of the same fan-out moved it); queued work is retried from the stored progress.
   */
  commitFanoutChunk(event: FanoutEvent, accepted: FanoutCandidate[], progress: FanoutProgress, inline: JobOutcome[]): Promise<string[]>;
}
