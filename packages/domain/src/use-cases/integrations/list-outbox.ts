import type { ChannelType } from '../../entities/channel';
import type { ProviderCatalogue } from '../../entities/provider-catalogue';
import type { OutboxMessage, OutboxRepository } from '../../ports/outbox-repository';
import type { CursorPage, CursorQuery } from '../../shared/pagination';

export interface ListOutboxInput {
  environmentId: string;
  /** email or sms; both when absent. */
  channel?: Extract<ChannelType, 'email' | 'sms'>;
  to?: string;
  transactionId?: string;
  subscriberId?: string;
  page: CursorQuery<'createdAt'>;
}

/** What the development sinks "sent", newest first by default: the way to see a workflow's email or SMS locally. */
export class ListOutbox {
  constructor(
    private readonly catalogue: ProviderCatalogue,
    private readonly outbox: OutboxRepository,
  ) {}

  execute({ environmentId, channel, page, ...filter }: ListOutboxInput): Promise<CursorPage<OutboxMessage>> {
    const channels: ChannelType[] = channel ? [channel] : ['email', 'sms'];
    const providerIds = channels.map((c) => this.catalogue.outboxProvider(c)).filter((p): p is string => Boolean(p));
    return this.outbox.list(environmentId, { ...filter, providerIds }, page);
  }
}
