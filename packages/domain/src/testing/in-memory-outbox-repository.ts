import { randomUUID } from 'node:crypto';
import type { ChannelType } from '../entities/channel';
import type { OutboxFilter, OutboxMessage, OutboxRepository } from '../ports/outbox-repository';
import type { CursorPage, CursorQuery } from '../shared/pagination';
import { cursorPage } from './in-memory-cursor-page';
import { InMemoryStore } from './in-memory-store';

/** A message row as the delivery engine writes it. */
export interface SentMessage {
  id: string;
  environmentId: string;
  channel: ChannelType;
  providerId: string;
  /** The address as stored: a string, or an object with `to`, `email` or `phone`. */
  destination: unknown;
  subject: string | null;
  body: string;
  transactionId: string;
  subscriberRowId: string;
  status: string;
  createdAt: Date;
}

const ADDRESS_KEYS = ['to', 'email', 'phone'] as const;

function addressOf(destination: unknown): string | null {
  if (typeof destination === 'string') return destination;
  if (destination && typeof destination === 'object' && !Array.isArray(destination)) {
    const value = ADDRESS_KEYS.map((key) => (destination as Record<string, unknown>)[key]).find((v) => typeof v === 'string');
    return (value as string | undefined) ?? null;
  }
  return null;
}

/** The OutboxRepository double over the sent messages it is given; `outbox-repository-contract.ts` holds it to the SQL adapter's behaviour. */
export class InMemoryOutboxRepository implements OutboxRepository {
  readonly messages: SentMessage[] = [];

  constructor(readonly store = new InMemoryStore()) {}

  /** A message as a sink provider's step writes it. */
  add(message: Omit<SentMessage, 'id'>): string {
    const id = randomUUID();
    this.messages.push({ ...structuredClone(message), id });
    return id;
  }

  async list(environmentId: string, filter: OutboxFilter, page: CursorQuery<'createdAt'>): Promise<CursorPage<OutboxMessage>> {
    const subscriber = filter.subscriberId === undefined ? undefined : this.store.subscriber(environmentId, filter.subscriberId);
    const matches = this.messages.filter(
      (m) =>
        m.environmentId === environmentId &&
        m.channel !== 'in_app' &&
        filter.providerIds.includes(m.providerId) &&
        (filter.transactionId === undefined || m.transactionId === filter.transactionId) &&
        (filter.subscriberId === undefined || m.subscriberRowId === subscriber?.id) &&
        (filter.to === undefined ||
          m.destination === filter.to ||
          ADDRESS_KEYS.some((key) => (m.destination as Record<string, unknown> | null)?.[key] === filter.to)),
    );
    const result = cursorPage(matches, page, (m) => m.createdAt);
    return {
      ...result,
      data: result.data.map((m) => ({
        id: m.id,
        channel: m.channel,
        providerId: m.providerId,
        to: addressOf(m.destination),
        subject: m.subject,
        body: m.body,
        transactionId: m.transactionId,
        subscriberId: this.store.subscriberByRowId(m.subscriberRowId)?.subscriberId ?? null,
        status: m.status,
        createdAt: m.createdAt,
      })),
    };
  }
}
