import { token } from '../shared/token';
import type { ChannelType } from '../entities/channel';
import type { CursorPage, CursorQuery } from '../shared/pagination';

export const OutboxRepository = token<OutboxRepository>('OutboxRepository');

/** A message the development sinks (`<svc>-email`, `<svc>-sms`) delivered locally instead of sending. */
export interface OutboxMessage {
  id: string;
  channel: ChannelType;
  providerId: string;
  /** The address it was for: `destination.to` (or the destination string) of the messages row. */
  to: string | null;
  subject: string | null;
  body: string;
  transactionId: string;
  /** External subscriberId of the recipient. */
  subscriberId: string | null;
  status: string;
  createdAt: Date;
}

export interface OutboxFilter {
  /** The sink providers to read, e.g. ["herald-email"]. */
  providerIds: string[];
  to?: string;
  transactionId?: string;
  subscriberId?: string;
}

/** Read side of the local outbox: rows of `messages` written by the delivery engine for sink providers. */
export interface OutboxRepository {
  list(environmentId: string, filter: OutboxFilter, page: CursorQuery<'createdAt'>): Promise<CursorPage<OutboxMessage>>;
}
