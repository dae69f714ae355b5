import { describe, expect, it } from 'vitest';
import { ProviderError, type OutboundMessage } from '../ports/delivery-provider';
import { InMemoryProviderRegistry, RecordingProvider } from './in-memory-provider-registry';
import { providerRegistryContract } from './provider-registry-contract';

providerRegistryContract('in memory', async () => ({
  registry: new InMemoryProviderRegistry({ sendgrid: new RecordingProvider('sendgrid'), twilio: new RecordingProvider('twilio') }),
  known: ['sendgrid', 'twilio'],
}));

describe('RecordingProvider', () => {
  it('records each send and answers from its script, then with receipts', async () => {
    const provider = new RecordingProvider('p', [new ProviderError('answered 503', true)]);
    const message = { channel: 'email', body: 'hi', to: { subscriberId: 'ada' } } as OutboundMessage;
    await expect(provider.send(message, {})).rejects.toMatchObject({ retryable: true });
    expect(await provider.send(message, { apiKey: 'k' })).toEqual({ providerMessageId: 'p-2' });
    expect(provider.sent.map((s) => s.credentials)).toEqual([{}, { apiKey: 'k' }]);
  });
});
