import type { Severity } from '../entities/channel';
import type { JsonObject } from '../entities/delivery';
import type { InboxAction, InboxOwner } from '../entities/inbox';
import type { InboxRepository } from '../ports/inbox-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';

/** One message as delivery writes it; only what the contract varies. */
export interface InboxSeed {
  createdAt: Date;
  /** 'in_app' unless said; other channels' messages are no inbox's. */
  channel?: 'in_app' | 'email';
  severity?: Severity;
  tags?: string[];
  data?: JsonObject | null;
  contextKeys?: string[];
  primaryAction?: InboxAction | null;
  /** Stored snoozed until then. */
  snoozedUntil?: Date;
}

export interface InboxRepositoryFixture {
  repo: InboxRepository;
  /** Writes the subscribers the inbox belongs to. */
  subscribers: SubscriberRepository;
  /** Writes one message of `owner`'s, as the delivery engine does; its id and the job that made it. */
  deliver(owner: InboxOwner, seed: InboxSeed): Promise<{ id: string; jobId: string }>;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const T0 = Date.UTC(2030, 0, 1);
export const minute = (n: number) => new Date(T0 + n * 60_000);

/** An owner for a new subscriber of `env`. */
export async function inboxOwner({ repo, subscribers }: InboxRepositoryFixture, env: string, subscriberId = 'ada'): Promise<InboxOwner> {
  await subscribers.insert(env, { subscriberId, firstName: subscriberId.toUpperCase() });
  return (await repo.owner(env, subscriberId))!;
}
