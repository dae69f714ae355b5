import { describe, expect, it } from 'vitest';
import type { SubscriberInput } from '../entities/subscriber';
import { DomainError } from '../errors';
import { mergeCredentials, resolveRecipientChannels } from './resolve-recipient-channels';

const integrations = [
  { id: 'i-chat-old', identifier: 'chat-old', providerId: 'chat-webhook', primary: false, active: true },
  { id: 'i-chat-main', identifier: 'chat-main', providerId: 'chat-webhook', primary: true, active: true },
  { id: 'i-push', identifier: 'push', providerId: 'push-webhook', primary: false, active: false },
];

const recipient = (channels: unknown[]): SubscriberInput => ({ subscriberId: 'ada', channels } as SubscriberInput);

describe('resolveRecipientChannels', () => {
  it.each([
    ['the primary integration of the provider', { providerId: 'chat-webhook', credentials: {} }, 'i-chat-main'],
    ['the integration named by identifier', { providerId: 'chat-webhook', integrationIdentifier: 'chat-old', credentials: {} }, 'i-chat-old'],
    ['an inactive integration when it is the only one', { providerId: 'push-webhook', credentials: {} }, 'i-push'],
  ])('matches %s', (_name, setting, id) => {
    const [resolved] = resolveRecipientChannels([recipient([setting])], integrations);
    expect(resolved.channels?.map((c) => c._integrationId)).toEqual([id]);
  });

  it('stores the integration identifier and merges two settings for one integration', () => {
    const [resolved] = resolveRecipientChannels(
      [recipient([
        { providerId: 'push-webhook', credentials: { deviceTokens: ['a', 'b'], title: 'x' } },
        { providerId: 'push-webhook', credentials: { deviceTokens: ['b', 'c'] } },
      ])],
      integrations,
    );
    expect(resolved.channels).toEqual([{ providerId: 'push-webhook', integrationIdentifier: 'push', _integrationId: 'i-push', credentials: { deviceTokens: ['a', 'b', 'c'], title: 'x' } }]);
  });

  it('leaves recipients without channels as they are', () => {
    const plain: SubscriberInput = { subscriberId: 'bob', firstName: 'Bob' };
    expect(resolveRecipientChannels([plain], [])).toEqual([plain]);
  });

  it.each([
    ['an unknown provider', { providerId: 'slack', credentials: {} }],
    ['an unknown identifier', { providerId: 'chat-webhook', integrationIdentifier: 'nope', credentials: {} }],
  ])('names the setting of %s', (_name, setting) => {
    const attempt = () => resolveRecipientChannels([recipient([{ providerId: 'chat-webhook', credentials: {} }, setting])], integrations);
    expect(attempt).toThrow(DomainError);
    try {
      attempt();
    } catch (error) {
      expect(Object.keys((error as DomainError).fields ?? {})).toEqual(['to.ada.channels.1.providerId']);
    }
  });
});

describe('mergeCredentials', () => {
  it('lets later fields win and accumulates device tokens once each', () => {
    expect(mergeCredentials({ webhookUrl: 'a', deviceTokens: ['1'] }, { webhookUrl: 'b', deviceTokens: ['1', '2'] })).toEqual({ webhookUrl: 'b', deviceTokens: ['1', '2'] });
    expect(mergeCredentials({ webhookUrl: 'a' }, {})).toEqual({ webhookUrl: 'a' });
  });
});
