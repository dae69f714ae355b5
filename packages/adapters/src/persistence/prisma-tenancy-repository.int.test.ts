import { expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';

const database = useTestDatabase();

it("raises an environment's Inbox security version exactly when its HMAC setting or its origins change", async () => {
  const tenancy = new PrismaTenancyRepository(database.db.prisma);
  const { environments } = await tenancy.bootstrap({
    organizationName: 'Org',
    environments: [
      { name: 'Development', slug: 'development', signingSecret: 's1', inboxHmac: false },
      { name: 'Production', slug: 'production', signingSecret: 's2' },
    ],
  });
  const [development, production] = environments;
  expect([development.inboxHmac, production.inboxHmac]).toEqual([false, true]);
  expect(production.inboxSecurityVersion).toBe(0);

  const version = async (settings: Parameters<typeof tenancy.updateEnvironment>[1]) => (await tenancy.updateEnvironment(production.id, settings))?.inboxSecurityVersion;
  expect(await version({ inboxHmac: true })).toBe(0);
  expect(await version({ inboxHmac: false })).toBe(1);
  expect(await version({ corsOrigins: ['https://app.example.com'] })).toBe(2);
  expect(await version({ corsOrigins: ['https://app.example.com'], inboxHmac: false })).toBe(2);
  expect(await version({})).toBe(2);
  expect(await version({ corsOrigins: [], inboxHmac: true })).toBe(3);
  // Concurrent changes each count: none is lost to a read-then-write race.
  await Promise.all([version({ corsOrigins: ['https://a.example.com'] }), version({ inboxHmac: false })]);
  expect((await tenancy.findEnvironment(production.id))?.inboxSecurityVersion).toBe(5);
  expect((await tenancy.findEnvironment(development.id))?.inboxSecurityVersion).toBe(0);
  expect(await tenancy.updateEnvironment('8f0e7a52-6f0f-4c1e-9d55-3b0b1d1f2a77', { inboxHmac: true })).toBeNull();
});
