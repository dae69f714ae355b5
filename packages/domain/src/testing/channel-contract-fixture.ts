import type { ChannelType } from '../entities/channel';
import type { ChannelConnectionRepository } from '../ports/channel-connection-repository';
import type { ChannelEndpointRepository } from '../ports/channel-endpoint-repository';
import type { IntegrationRepository } from '../ports/integration-repository';
import type { SubscriberRepository } from '../ports/subscriber-repository';

/** What the connection and endpoint contracts run on: the two ports, and the rows they refer to. */
export interface ChannelRepositoriesFixture {
  connections: ChannelConnectionRepository;
  endpoints: ChannelEndpointRepository;
  integrations: IntegrationRepository;
  subscribers: SubscriberRepository;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

/** Two chat integrations (slack, a webhook chat) and two subscribers in `env`; their ids. */
export async function channelWorld({ integrations, subscribers }: ChannelRepositoriesFixture, env: string) {
  const integration = async (identifier: string, providerId: string, channel: ChannelType) =>
    (await integrations.create(env, {
      name: identifier,
      identifier,
      providerId,
      channel,
      kind: 'delivery',
      credentials: {},
      configurations: {},
      active: true,
      primary: false,
      conditions: [],
    }))!;
  const [slack, hooks] = [await integration('slack-main', 'slack', 'chat'), await integration('hooks', 'chat-webhook', 'chat')];
  const [ada, bob] = [(await subscribers.insert(env, { subscriberId: 'ada' }))!, (await subscribers.insert(env, { subscriberId: 'bob' }))!];
  return { slack, hooks, ada, bob };
}

export const all = { limit: 50, orderBy: 'createdAt', orderDirection: 'ASC', includeCursor: false } as const;
