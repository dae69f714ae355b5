import type { EventRepository, FanoutCandidate } from '../../ports/event-repository';
import { subscriptionAllows } from '../../rules/subscription-allows';
import type { SubscriptionPreferenceRule } from '../../entities/subscription';
import { contextFromKeys } from '../../shared/context-keys';

export const FANOUT_CHUNK = 1_000;

/**
 * Expands an event's topic recipients in keyset chunks. Each chunk commits its notifications, its
 * queued work and the new cursor together, so a crash resumes after the last committed chunk and
 * no recipient is ever notified twice for one trigger.
 */
export class FanOutEvent {
  constructor(
    private readonly events: EventRepository,
    private readonly chunkSize = FANOUT_CHUNK,
  ) {}

  async execute(eventId: string): Promise<{ notifications: number; filtered: number }> {
    const event = await this.events.loadFanout(eventId);
    if (!event || event.status === 'fanned_out') return { notifications: 0, filtered: 0 };
    const workflow = { id: event.workflow.id, identifier: event.workflow.identifier, tags: event.workflow.tags };
    const context = contextFromKeys(event.contextKeys);
    let notifications = 0;
    let filtered = 0;
    for (;;) {
      const candidates = await this.events.fanoutCandidates(event, this.chunkSize);
      const accepted: FanoutCandidate[] = [];
      for (const candidate of candidates) {
        const decision = candidate.preferences.length
          ? subscriptionAllows(candidate.preferences as SubscriptionPreferenceRule[], workflow, {
              payload: event.payload,
              subscriber: candidate.subscriber,
              context,
            })
          : { allowed: true };
        if (decision.allowed) accepted.push(candidate);
        else filtered++;
      }
      const done = candidates.length < this.chunkSize;
      const cursor = candidates.length ? candidates[candidates.length - 1].subscriberId : event.cursor;
      notifications += await this.events.commitFanoutChunk(event, accepted, cursor, done);
      event.cursor = cursor;
      if (done) return { notifications, filtered };
    }
  }
}
