import { describe, expect, it } from 'vitest';
import { providerCatalogue } from '../../entities/provider-catalogue';
import { ProviderError } from '../../ports/delivery-provider';
import { InMemoryIntegrationRepository } from '../../testing/in-memory-integration-repository';
import { InMemoryProviderRegistry, RecordingProvider } from '../../testing/in-memory-provider-registry';
import { CreateIntegration } from './create-integration';
import { EnsureBuiltInIntegrations } from './ensure-built-in-integrations';
import { SendIntegrationTest } from './send-integration-test';

const catalogue = providerCatalogue('herald');

async function setup(script: ConstructorParameters<typeof RecordingProvider>[1] = []) {
  const repo = new InMemoryIntegrationRepository();
  await new EnsureBuiltInIntegrations(catalogue, repo).execute([{ id: 'env', slug: 'development' }]);
  const smtp = await new CreateIntegration(catalogue, repo).execute({
    environmentId: 'env',
    providerId: 'nodemailer',
    name: 'Mail',
    credentials: { host: 'smtp.example.com', port: '587', from: 'no-reply@example.com', senderName: 'Acme\r\nBcc: x@example.com', password: 'hunter2' },
  });
  const provider = new RecordingProvider('nodemailer', script);
  const test = new SendIntegrationTest(repo, new InMemoryProviderRegistry({ nodemailer: provider }), 'herald');
  const inApp = (await repo.list('env')).find((i) => i.channel === 'in_app')!;
  return { test, provider, smtp, inApp };
}

describe('SendIntegrationTest', () => {
  it('sends one message through the integration with its credentials, header-safe, and answers with the receipt', async () => {
    const { test, provider, smtp } = await setup([{ providerMessageId: 'm-1', raw: '250 OK' }]);
    expect(await test.execute('env', smtp.id, { to: ' ada@example.com ', subject: 'Hello' })).toEqual({ sent: true, providerId: 'nodemailer', providerMessageId: 'm-1', raw: '250 OK' });
    const [{ message, credentials }] = provider.sent;
    expect(message).toMatchObject({ channel: 'email', to: { email: 'ada@example.com' }, subject: 'Hello', body: expect.stringContaining('Mail integration') });
    expect(credentials).toMatchObject({ senderName: 'Acme Bcc: x@example.com', password: 'hunter2' });
  });

  it("answers a provider's refusal as the provider gave it, not as an error of the request", async () => {
    const { test, smtp } = await setup([new ProviderError('535 authentication failed', false, '535 5.7.8')]);
    expect(await test.execute('env', smtp.id, { to: 'ada@example.com' })).toEqual({ sent: false, providerId: 'nodemailer', error: '535 authentication failed', retryable: false, raw: '535 5.7.8' });
  });

  it('names the field when the integration, its channel or the recipient does not fit', async () => {
    const { test, provider, smtp, inApp } = await setup();
    await expect(test.execute('env', 'nope', { to: 'ada@example.com' })).rejects.toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
    await expect(test.execute('other-env', smtp.id, { to: 'ada@example.com' })).rejects.toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
    await expect(test.execute('env', smtp.id, { to: '+15550100' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fields: { to: expect.anything() } });
    await expect(test.execute('env', inApp.id, { to: 'ada@example.com' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fields: { integrationId: expect.anything() } });
    expect(provider.sent).toEqual([]);
  });
});
