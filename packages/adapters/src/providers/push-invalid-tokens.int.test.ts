import { ProviderError } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedHttpClient } from '../http/guarded-http-client';
import { fake as pushpad } from './fakes/pushpad.fake';
import { fake as pusherBeams } from './fakes/pusher-beams.fake';
import { StaticProviderRegistry } from './static-provider-registry';
import type { RunningProviderFake } from './testing/provider-fake';

// The shared contract holds an invalid token permanent; these also hand it back for removal from the
// subscriber (the engine removes `invalidDeviceTokens`, as it does FCM's and Expo's).
describe.each([pusherBeams, pushpad])('$id: an invalid push token', (fixture) => {
  let running: RunningProviderFake;
  let registry: StaticProviderRegistry;
  beforeAll(async () => {
    running = await fixture.start();
    registry = new StaticProviderRegistry('herald', new GuardedHttpClient(true), { allowPrivateNetworks: true, endpoints: { [fixture.id]: running.endpoint! }, timeoutMs: 5_000 });
  });
  afterAll(async () => {
    await registry?.close();
    await running?.close();
  });

  it('is a permanent failure that names the token to remove', async () => {
    const { to, credentials } = running.invalidRecipient;
    const message = { channel: 'push' as const, to: { subscriberId: 'ada', ...to }, subject: 'Order A-1', body: 'Order A-1 is on its way', transactionId: 'tx-1', idempotencyKey: 'job-1', overrides: {} };
    const failure = await registry.get(fixture.id)!.send(message, credentials).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({ retryable: false, extra: { invalidDeviceTokens: to.deviceTokens } });
  });
});
