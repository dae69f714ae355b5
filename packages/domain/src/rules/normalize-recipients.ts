import type { Recipients } from '../entities/delivery';
import type { SubscriberInput } from '../entities/subscriber';
import { DomainError } from '../errors';

export const MAX_TRIGGER_RECIPIENTS = 100;

type RawRecipient = string | (Partial<SubscriberInput> & { type?: string; topicKey?: string; exclude?: unknown });

/**
 * `to` as the trigger accepts it (an id, a subscriber object, a topic object, or an array of these)
 * -> direct subscriber ids, subscriber objects to upsert, and topics. Throws VALIDATION_FAILED naming `to`.
 */
export function normalizeRecipients(to: unknown): Recipients {
  const items: RawRecipient[] = Array.isArray(to) ? to : to === undefined || to === null ? [] : [to as RawRecipient];
  if (items.length > MAX_TRIGGER_RECIPIENTS) {
    throw DomainError.field('to', `at most ${MAX_TRIGGER_RECIPIENTS} recipients per trigger, got ${items.length}`);
  }
  const ids = new Set<string>();
  const upserts = new Map<string, SubscriberInput>();
  const topics = new Map<string, Set<string>>();
  items.forEach((item, i) => {
    const at = Array.isArray(to) ? `to[${i}]` : 'to';
    if (typeof item === 'string') {
      if (!item.trim()) throw DomainError.field(at, 'a subscriber id must not be empty', item);
      ids.add(item);
      return;
    }
    if (!item || typeof item !== 'object') throw DomainError.field(at, 'must be a subscriber id, a subscriber object or a topic object', item);
    if (item.type === 'Topic' || item.topicKey !== undefined) {
      if (typeof item.topicKey !== 'string' || !item.topicKey) throw DomainError.field(`${at}.topicKey`, 'is required for a topic recipient');
      const exclude = item.exclude ?? [];
      if (!Array.isArray(exclude) || exclude.some((e) => typeof e !== 'string')) {
        throw DomainError.field(`${at}.exclude`, 'must be an array of subscriber ids', exclude);
      }
      const set = topics.get(item.topicKey) ?? new Set<string>();
      exclude.forEach((e) => set.add(e as string));
      topics.set(item.topicKey, set);
      return;
    }
    if (typeof item.subscriberId !== 'string' || !item.subscriberId.trim()) {
      throw DomainError.field(`${at}.subscriberId`, 'is required for a subscriber recipient');
    }
    ids.add(item.subscriberId);
    const { type: _type, topicKey: _topic, exclude: _exclude, ...attributes } = item;
    upserts.set(item.subscriberId, { ...upserts.get(item.subscriberId), ...(attributes as SubscriberInput) });
  });
  return {
    subscriberIds: [...ids],
    upserts: [...upserts.values()],
    topics: [...topics].map(([topicKey, exclude]) => ({ topicKey, exclude: [...exclude] })),
  };
}
