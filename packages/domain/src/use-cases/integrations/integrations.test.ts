import { describe, expect, it } from 'vitest';
import { providerCatalogue } from '../../entities/provider-catalogue';
import { DomainError } from '../../errors';
import { InMemoryIntegrationRepository } from '../../testing/in-memory-integration-repository';
import { CreateIntegration } from './create-integration';
import { EnsureBuiltInIntegrations } from './ensure-built-in-integrations';
import { DeleteIntegration } from './delete-integration';
import { SetPrimaryIntegration } from './set-primary-integration';
import { UpdateIntegration } from './update-integration';

const catalogue = providerCatalogue('herald');
const smtp = { host: 'smtp.example.com', port: '587', from: 'no-reply@example.com' };

async function setup() {
  const repo = new InMemoryIntegrationRepository();
  await new EnsureBuiltInIntegrations(catalogue, repo).execute([{ id: 'env', slug: 'development' }]);
  return { repo, create: new CreateIntegration(catalogue, repo) };
}

const primaryOf = async (repo: InMemoryIntegrationRepository, channel: 'email' | 'sms') =>
  (await repo.findDeliveryCandidates('env', channel)).find((i) => i.primary)?.providerId;

describe('integrations', () => {
  it('built-ins are created once, each primary of its channel', async () => {
    const { repo } = await setup();
    expect(await new EnsureBuiltInIntegrations(catalogue, repo).execute([{ id: 'env', slug: 'development' }])).toBe(0);
    expect((await repo.list('env')).map((i) => [i.providerId, i.channel, i.primary])).toEqual([
      ['herald', 'in_app', true],
      ['herald-email', 'email', true],
      ['herald-sms', 'sms', true],
    ]);
  });

  it('only the Development environment has the sinks; another loses the ones it had', async () => {
    const repo = new InMemoryIntegrationRepository();
    await repo.ensureBuiltIns(['prod'], catalogue.builtIns);
    await new EnsureBuiltInIntegrations(catalogue, repo).execute([{ id: 'prod', slug: 'production' }]);
    expect((await repo.list('prod')).map((i) => i.providerId)).toEqual(['herald']);
  });

  it('a real provider takes primary from the development sink, a second one does not', async () => {
    const { repo, create } = await setup();
    const first = await create.execute({ environmentId: 'env', providerId: 'nodemailer', credentials: smtp });
    expect(first).toMatchObject({ channel: 'email', kind: 'delivery', primary: true, active: true });
    expect(await primaryOf(repo, 'email')).toBe('nodemailer');
    const second = await create.execute({ environmentId: 'env', providerId: 'sendgrid', credentials: { apiKey: 'k', from: 'a@b.co' } });
    expect(second.primary).toBe(false);
    await new SetPrimaryIntegration(repo).execute('env', second.identifier);
    expect(await primaryOf(repo, 'email')).toBe('sendgrid');
  });

  it('refuses bad credentials naming the field, an unknown provider and a wrong channel', async () => {
    const { create } = await setup();
    const fields = async (p: Promise<unknown>) => Object.keys(((await p.catch((e: unknown) => e)) as DomainError).fields ?? {});
    expect(await fields(create.execute({ environmentId: 'env', providerId: 'twilio', credentials: { accountSid: 'AC' } }))).toEqual([
      'credentials.token',
      'credentials.from',
    ]);
    expect(await fields(create.execute({ environmentId: 'env', providerId: 'pigeon' }))).toEqual(['providerId']);
    expect(await fields(create.execute({ environmentId: 'env', providerId: 'twilio', channel: 'email' }))).toEqual(['channel']);
  });

  it('keeps a send rate and connection count in bounds, naming the field', async () => {
    const { create } = await setup();
    const fields = async (p: Promise<unknown>) => Object.keys(((await p.catch((e: unknown) => e)) as DomainError).fields ?? {});
    const bad = { sendRatePerSecond: 0, maxConcurrentSends: 2.5 };
    expect(await fields(create.execute({ environmentId: 'env', providerId: 'nodemailer', credentials: smtp, configurations: bad }))).toEqual([
      'configurations.sendRatePerSecond',
      'configurations.maxConcurrentSends',
    ]);
    const ok = await create.execute({ environmentId: 'env', providerId: 'nodemailer', credentials: smtp, configurations: { sendRatePerSecond: 0.5, maxConcurrentSends: 20 } });
    expect(ok.configurations).toMatchObject({ sendRatePerSecond: 0.5, maxConcurrentSends: 20 });
  });

  it('rejects a taken identifier, and update merges credentials before validating', async () => {
    const { repo, create } = await setup();
    const created = await create.execute({ environmentId: 'env', providerId: 'nodemailer', identifier: 'smtp', credentials: smtp });
    const clash = await create.execute({ environmentId: 'env', providerId: 'nodemailer', identifier: 'smtp', credentials: smtp }).catch((e: DomainError) => e);
    expect((clash as DomainError).code).toBe('INTEGRATION_ALREADY_EXISTS');
    const updated = await new UpdateIntegration(catalogue, repo).execute({ environmentId: 'env', integrationId: created.id, credentials: { port: '2525' } });
    expect(updated.credentials).toEqual({ ...smtp, port: '2525' });
  });

  it('delete is soft and answers with the remaining integrations', async () => {
    const { repo } = await setup();
    const remaining = await new DeleteIntegration(repo).execute('env', 'herald-sms');
    expect(remaining.map((i) => i.identifier)).toEqual(['herald', 'herald-email']);
    expect(repo.rows.find((r) => r.identifier === 'herald-sms')).toMatchObject({ deleted: true, primary: false });
    await expect(new DeleteIntegration(repo).execute('env', 'herald-sms')).rejects.toMatchObject({ code: 'INTEGRATION_NOT_FOUND' });
    // A deleted built-in is not brought back on the next start.
    expect(await new EnsureBuiltInIntegrations(catalogue, repo).execute([{ id: 'env', slug: 'development' }])).toBe(0);
  });
});
