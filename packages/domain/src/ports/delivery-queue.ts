import { token } from '../shared/token';

export const DeliveryQueue = token<DeliveryQueue>('DeliveryQueue');

export interface DeliveryWorkHandlers {
  /** Expands the topic recipients of these events. */
  fanout(eventIds: string[]): Promise<void>;
  /** Runs the due steps of these notifications. */
  steps(notificationIds: string[]): Promise<void>;
  /** Runs the steps of these notifications that just became due (delays, digest windows), on time. */
  dueSteps?(notificationIds: string[]): Promise<void>;
}

/**
 * The durable work queue between the API and the workers. Work is enqueued by the repositories
 * inside the transactions that create it; this port consumes it. A handler that throws has its
 * work retried with backoff; any number of processes may consume, and a unit of work is handed to
 * one consumer at a time.
 */
export interface DeliveryQueue {
  /** Starts handing this process work, each unit to one handler call, until `stop`. */
  consume(handlers: DeliveryWorkHandlers): Promise<void>;
  /** Takes no more work; resolves once the work in hand has finished. */
  stop(): Promise<void>;
}
