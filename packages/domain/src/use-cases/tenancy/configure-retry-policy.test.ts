import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRY_POLICY } from '../../entities/retry-policy';
import { InMemoryTenancyRepository } from '../../testing/in-memory-tenancy-repository';
import { ConfigureRetryPolicy } from './configure-retry-policy';

async function tenancy() {
  const repo = new InMemoryTenancyRepository();
  await repo.bootstrap({
    organizationName: 'Org',
    environments: [
      { name: 'Development', slug: 'development', signingSecret: 's' },
      { name: 'Production', slug: 'production', signingSecret: 's' },
    ],
  });
  return repo;
}

describe('ConfigureRetryPolicy', () => {
  const serviceDefault = { ...DEFAULT_RETRY_POLICY, maxAttempts: 4 };

  it('sets fields over the service default, keeps earlier ones, and resets to the default', async () => {
    const policies = new ConfigureRetryPolicy(await tenancy(), serviceDefault);
    expect((await policies.show('production')).effective).toEqual(serviceDefault);
    await policies.set('production', { maxAttempts: 8 });
    const view = await policies.set('production', { initialDelayMs: 1_000 });
    expect(view.own).toEqual({ maxAttempts: 8, initialDelayMs: 1_000 });
    expect(view.effective).toEqual({ ...serviceDefault, maxAttempts: 8, initialDelayMs: 1_000 });
    expect((await policies.show('development')).own).toBeNull();
    expect((await policies.reset('production')).effective).toEqual(serviceDefault);
  });

  it('refuses a bad field by name, and an unknown environment by listing the known ones', async () => {
    const policies = new ConfigureRetryPolicy(await tenancy(), serviceDefault);
    await expect(policies.set('production', { maxAttempts: 0 })).rejects.toMatchObject({ code: 'VALIDATION_FAILED', fields: { 'retryPolicy.maxAttempts': expect.anything() } });
    await expect(policies.show('staging')).rejects.toMatchObject({ code: 'ENVIRONMENT_NOT_FOUND', message: expect.stringContaining('development, production') });
  });
});
