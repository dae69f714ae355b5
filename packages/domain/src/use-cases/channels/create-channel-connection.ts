import { randomBytes } from 'node:crypto';
import type { ChannelConnection } from '../../entities/channel-endpoint';
import { DomainError } from '../../errors';
import type { ChannelConnectionRepository } from '../../ports/channel-connection-repository';
import type { IntegrationRepository } from '../../ports/integration-repository';
import type { SubscriberRepository } from '../../ports/subscriber-repository';
import { toContextKeys } from '../../shared/context-keys';

export interface CreateChannelConnectionInput {
  environmentId: string;
  identifier?: string;
  subscriberId?: string;
  context?: Record<string, string | { id: string }>;
  /** `shared`: the connection belongs to a context, not to a subscriber (subscriberId is not stored). */
  connectionMode?: 'subscriber' | 'shared';
  integrationIdentifier: string;
  workspace: ChannelConnection['workspace'];
  auth: ChannelConnection['auth'];
}

export class CreateChannelConnection {
  constructor(
    private readonly integrations: IntegrationRepository,
    private readonly subscribers: SubscriberRepository,
    private readonly connections: ChannelConnectionRepository,
  ) {}

  async execute(input: CreateChannelConnectionInput): Promise<ChannelConnection> {
    const { environmentId } = input;
    if (input.auth.accessToken.trim() === '') throw DomainError.field('auth.accessToken', 'must not be empty');
    if (input.workspace.id.trim() === '') throw DomainError.field('workspace.id', 'must not be empty', input.workspace.id);
    const integration = await this.integrations.find(environmentId, input.integrationIdentifier);
    if (!integration) throw DomainError.notFound('INTEGRATION_NOT_FOUND', 'Integration', input.integrationIdentifier);

    let subscriberRowId: string | null = null;
    if (input.subscriberId && input.connectionMode !== 'shared') {
      const subscriber = await this.subscribers.findById(environmentId, input.subscriberId);
      if (!subscriber) throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);
      subscriberRowId = subscriber.id;
    }
    const identifier = input.identifier?.trim() || `${integration.identifier}-${randomBytes(6).toString('hex')}`;
    const created = await this.connections.create(environmentId, {
      identifier,
      integrationId: integration.id,
      subscriberRowId,
      contextKeys: toContextKeys(input.context),
      workspace: input.workspace,
      auth: input.auth,
    });
    if (!created) {
      throw new DomainError('CHANNEL_CONNECTION_ALREADY_EXISTS', `A channel connection with identifier '${identifier}' already exists`);
    }
    return created;
  }
}
