import type { ChannelCredentials, ChannelSettings, Subscriber } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { IntegrationRepository } from '../../ports/integration-repository';
import type { SubscriberRepository } from '../../ports/subscriber-repository';
import { matchIntegration, mergeCredentials } from '../../rules/resolve-recipient-channels';

export interface SetSubscriberCredentialsInput {
  environmentId: string;
  subscriberId: string;
  providerId: string;
  integrationIdentifier?: string;
  credentials: ChannelCredentials;
  /** `replace`: the integration's settings become these; `merge`: fields given win, device tokens accumulate. */
  mode: 'replace' | 'merge';
}

/**
 * A subscriber's channel settings for one integration (a chat webhook URL, push device tokens), the
 * integration matched as a trigger recipient's channels are: by provider and, when given, identifier.
 */
export class SetSubscriberCredentials {
  constructor(
    private readonly subscribers: SubscriberRepository,
    private readonly integrations: IntegrationRepository,
  ) {}

  async execute(input: SetSubscriberCredentialsInput): Promise<Subscriber> {
    const subscriber = await this.subscribers.findById(input.environmentId, input.subscriberId);
    if (!subscriber) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);
    const integration = matchIntegration(await this.integrations.list(input.environmentId), input);
    if (!integration) {
      const which = input.integrationIdentifier ? ` with identifier '${input.integrationIdentifier}'` : '';
      throw DomainError.field('providerId', `no ${input.providerId} integration${which} in this environment`, input.providerId);
    }
    const earlier = subscriber.channels.find((c) => c._integrationId === integration.id);
    const setting: ChannelSettings = {
      providerId: integration.providerId,
      integrationIdentifier: integration.identifier,
      credentials: input.mode === 'merge' && earlier ? mergeCredentials(earlier.credentials, input.credentials) : input.credentials,
      _integrationId: integration.id,
    };
    const channels = earlier ? subscriber.channels.map((c) => (c === earlier ? setting : c)) : [...subscriber.channels, setting];
    return this.update(input.environmentId, input.subscriberId, channels);
  }

  /** Drops every channel setting of the provider; the subscriber as it is then. */
  async remove(environmentId: string, subscriberId: string, providerId: string): Promise<Subscriber> {
    const subscriber = await this.subscribers.findById(environmentId, subscriberId);
    if (!subscriber) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return this.update(environmentId, subscriberId, subscriber.channels.filter((c) => c.providerId !== providerId));
  }

  private async update(environmentId: string, subscriberId: string, channels: ChannelSettings[]): Promise<Subscriber> {
    const updated = await this.subscribers.update(environmentId, subscriberId, { channels });
    if (!updated) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', subscriberId);
    return updated;
  }
}
