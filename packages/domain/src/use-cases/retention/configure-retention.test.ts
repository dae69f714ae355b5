import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors';
import { InMemoryTenancyRepository } from '../../testing/in-memory-tenancy-repository';
import { ConfigureRetention } from './configure-retention';

async function setup() {
  const tenancy = new InMemoryTenancyRepository();
  await tenancy.bootstrap({ organizationName: 'o', environments: [{ name: 'Development', slug: 'development', signingSecret: 'a' }, { name: 'Production', slug: 'production', signingSecret: 'b' }] });
  return { tenancy, retention: new ConfigureRetention(tenancy, 90) };
}

describe('ConfigureRetention', () => {
  it('shows the service default until an environment sets its own, and follows the default again after a reset', async () => {
    const { retention } = await setup();
    expect(await retention.show('production')).toMatchObject({ environment: { slug: 'production' }, days: 90, own: null });
    expect(await retention.set('production', 30)).toMatchObject({ days: 30, own: 30 });
    expect(await retention.set('PRODUCTION', '365')).toMatchObject({ days: 365, own: 365 });
    expect(await retention.show('development')).toMatchObject({ days: 90, own: null });
    expect(await retention.reset('production')).toMatchObject({ days: 90, own: null });
  });

  it('refuses a retention that is not a whole number of days from 1 to 3650, naming the field, and changes nothing', async () => {
    const { retention } = await setup();
    await retention.set('production', 30);
    for (const bad of [0, 3651, 2.5, 'forever', null]) {
      const error = await retention.set('production', bad).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', fields: { retentionDays: { messages: ['must be a whole number of days from 1 to 3650'] } } });
    }
    expect(await retention.show('production')).toMatchObject({ days: 30 });
  });

  it('names the known environments when asked for an unknown one', async () => {
    const { retention } = await setup();
    await expect(retention.set('staging', 30)).rejects.toMatchObject({ code: 'ENVIRONMENT_NOT_FOUND', message: "Environment 'staging' was not found (known: development, production)" });
  });
});
