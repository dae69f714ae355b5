import { describe, expect, it } from 'vitest';
import type { NewIntegration } from '../../entities/integration';
import { InMemoryIntegrationRepository } from '../../testing/in-memory-integration-repository';
import { InMemoryStore } from '../../testing/in-memory-store';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import { SetSubscriberCredentials } from './set-subscriber-credentials';

const integration = (providerId: string, identifier: string, channel: 'chat' | 'push'): NewIntegration => ({
  name: identifier, identifier, providerId, channel, kind: 'delivery', credentials: {}, configurations: {}, active: true, primary: false, conditions: [],
});

async function setUp() {
  const store = new InMemoryStore();
  const subscribers = new InMemorySubscriberRepository(store);
  const integrations = new InMemoryIntegrationRepository(store);
  const slack = (await integrations.create('e', integration('slack', 'slack-main', 'chat')))!;
  const fcm = (await integrations.create('e', integration('fcm', 'fcm-main', 'push')))!;
  await subscribers.insert('e', { subscriberId: 'ada' });
  return { subscribers, set: new SetSubscriberCredentials(subscribers, integrations), slack, fcm };
}

describe('SetSubscriberCredentials', () => {
  it('sets one integration’s settings, leaving the others; replace replaces, merge accumulates device tokens', async () => {
    const { set, slack, fcm } = await setUp();
    await set.execute({ environmentId: 'e', subscriberId: 'ada', providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/a' }, mode: 'replace' });
    await set.execute({ environmentId: 'e', subscriberId: 'ada', providerId: 'fcm', credentials: { deviceTokens: ['t1'] }, mode: 'replace' });
    const merged = await set.execute({ environmentId: 'e', subscriberId: 'ada', providerId: 'fcm', credentials: { deviceTokens: ['t2'] }, mode: 'merge' });
    expect(merged.channels).toEqual([
      { providerId: 'slack', integrationIdentifier: 'slack-main', credentials: { webhookUrl: 'https://hooks.example/a' }, _integrationId: slack.id },
      { providerId: 'fcm', integrationIdentifier: 'fcm-main', credentials: { deviceTokens: ['t1', 't2'] }, _integrationId: fcm.id },
    ]);
    const replaced = await set.execute({ environmentId: 'e', subscriberId: 'ada', providerId: 'fcm', integrationIdentifier: 'fcm-main', credentials: { deviceTokens: ['t3'] }, mode: 'replace' });
    expect(replaced.channels.map((c) => c.credentials)).toEqual([{ webhookUrl: 'https://hooks.example/a' }, { deviceTokens: ['t3'] }]);
  });

  it('removes a provider’s settings', async () => {
    const { set } = await setUp();
    await set.execute({ environmentId: 'e', subscriberId: 'ada', providerId: 'slack', credentials: { webhookUrl: 'https://hooks.example/a' }, mode: 'replace' });
    expect((await set.remove('e', 'ada', 'slack')).channels).toEqual([]);
  });

  it('refuses an unknown subscriber, provider or identifier, changing nothing', async () => {
    const { set, subscribers } = await setUp();
    const input = { environmentId: 'e', subscriberId: 'ada', credentials: { webhookUrl: 'https://x.example' }, mode: 'replace' as const };
    await expect(set.execute({ ...input, subscriberId: 'nobody', providerId: 'slack' })).rejects.toMatchObject({ code: 'SUBSCRIBER_NOT_FOUND' });
    await expect(set.execute({ ...input, providerId: 'discord' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fields: { providerId: expect.anything() } });
    await expect(set.execute({ ...input, providerId: 'slack', integrationIdentifier: 'other' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(set.remove('e', 'nobody', 'slack')).rejects.toMatchObject({ code: 'SUBSCRIBER_NOT_FOUND' });
    expect((await subscribers.findById('e', 'ada'))!.channels).toEqual([]);
  });
});
