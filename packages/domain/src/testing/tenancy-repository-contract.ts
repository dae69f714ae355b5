import { describe, expect, it } from 'vitest';
import type { TenancyRepository } from '../ports/tenancy-repository';

const spec = {
  organizationName: 'Acme',
  environments: [
    { name: 'Development', slug: 'development', signingSecret: 'dev-secret', inboxHmac: false },
    { name: 'Production', slug: 'production', signingSecret: 'prod-secret' },
  ],
};
const bySlug = <T extends { slug: string }>(list: T[]) => [...list].sort((a, b) => a.slug.localeCompare(b.slug));

/**
 * The behaviour every TenancyRepository has; run against the in-memory double and the SQL adapter.
 * `setup` gives an empty installation each time (bootstrap is once per installation).
 */
export function tenancyRepositoryContract(name: string, setup: () => Promise<TenancyRepository>): void {
  describe(`TenancyRepository contract: ${name}`, () => {
    it('bootstraps one organization with its environments once, however many processes ask at the same time', async () => {
      const repo = await setup();
      const results = await Promise.all(Array.from({ length: 5 }, () => repo.bootstrap(spec)));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.organization.id)).size).toBe(1);
      const [first] = results;
      expect(first.organization).toMatchObject({ name: 'Acme', idempotencyEnabled: true });
      expect(bySlug(first.environments)).toEqual([
        expect.objectContaining({ name: 'Development', slug: 'development', signingSecret: 'dev-secret', organizationId: first.organization.id, retryPolicy: null, inboxHmac: false, corsOrigins: [], inboxSecurityVersion: 0 }),
        expect.objectContaining({ name: 'Production', slug: 'production', signingSecret: 'prod-secret', inboxHmac: true, inboxSecurityVersion: 0 }),
      ]);
      const later = await repo.bootstrap({ organizationName: 'Other', environments: [] });
      expect(later.created).toBe(false);
      expect(later.organization.id).toBe(first.organization.id);
      expect(bySlug(later.environments)).toEqual(bySlug(first.environments));
    });

    it('finds environments by id and by public identifier, and changes their settings and retry policy', async () => {
      const repo = await setup();
      const { environments } = await repo.bootstrap(spec);
      const [dev, prod] = bySlug(environments);
      // Made in one statement, the two share their creation time: Development comes first all the same.
      expect(await repo.listEnvironments()).toEqual([dev, prod]);
      const organization = { id: dev.organizationId, name: 'Acme', idempotencyEnabled: true };
      expect(await repo.findOrganization(dev.organizationId)).toEqual(organization);
      expect(await repo.findOrganization('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await repo.findOrganization('not-an-id')).toBeNull();
      expect(dev.publicIdentifier).not.toBe(prod.publicIdentifier);
      expect(await repo.findEnvironment(dev.id)).toEqual(dev);
      expect(await repo.findEnvironment('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect(await repo.findEnvironmentByIdentifier(prod.publicIdentifier)).toEqual(prod);
      expect(await repo.findEnvironmentByIdentifier('pk_unknown')).toBeNull();
      expect(await repo.updateEnvironment(dev.id, { inboxHmac: true, corsOrigins: ['https://app.example'] })).toEqual({
        ...dev,
        inboxHmac: true,
        corsOrigins: ['https://app.example'],
        inboxSecurityVersion: dev.inboxSecurityVersion + 1,
      });
      // Setting what is already there is no security change: tokens stay valid.
      expect(await repo.updateEnvironment(dev.id, { inboxHmac: true })).toMatchObject({ inboxSecurityVersion: dev.inboxSecurityVersion + 1 });
      expect(await repo.updateEnvironment(dev.id, { corsOrigins: [] })).toMatchObject({ inboxHmac: true, corsOrigins: [], inboxSecurityVersion: dev.inboxSecurityVersion + 2 });
      expect(await repo.updateEnvironment('not-an-id', { inboxHmac: true })).toBeNull();
      await repo.setRetryPolicy(prod.id, { maxAttempts: 2 });
      expect((await repo.findEnvironment(prod.id))!.retryPolicy).toEqual({ maxAttempts: 2 });
      await repo.setRetryPolicy(prod.id, null);
      expect((await repo.findEnvironment(prod.id))!.retryPolicy).toBeNull();
      expect(await repo.findEnvironment(dev.id)).toMatchObject({ retryPolicy: null });
      await repo.setBridge(dev.id, { url: 'https://bridge.example/api/novu', keyHash: 'h1' });
      await repo.setBridge(dev.id, { url: 'https://bridge.example/v2', keyHash: 'h2' });
      expect((await repo.findEnvironment(dev.id))!.bridge).toEqual({ url: 'https://bridge.example/v2', keyHash: 'h2' });
      expect((await repo.findEnvironment(prod.id))!.bridge ?? null).toBeNull();
    });

    it("keeps an environment's retention days until cleared, without touching its Inbox security or other environments", async () => {
      const repo = await setup();
      const [dev, prod] = bySlug((await repo.bootstrap(spec)).environments);
      expect(dev.retentionDays ?? null).toBeNull();
      expect(await repo.updateEnvironment(dev.id, { retentionDays: 30 })).toEqual({ ...dev, retentionDays: 30 });
      expect(await repo.updateEnvironment(dev.id, { inboxHmac: true })).toMatchObject({ retentionDays: 30, inboxSecurityVersion: dev.inboxSecurityVersion + 1 });
      expect((await repo.findEnvironment(prod.id))!.retentionDays ?? null).toBeNull();
      expect(await repo.updateEnvironment(dev.id, { retentionDays: null })).toMatchObject({ retentionDays: null, inboxSecurityVersion: dev.inboxSecurityVersion + 1 });
    });

    it('adds API keys idempotently by hash, authenticates unrevoked ones, and revokes once', async () => {
      const repo = await setup();
      const { organization, environments } = await repo.bootstrap(spec);
      const [dev, prod] = bySlug(environments);
      const key = await repo.addApiKey(dev.id, 'hash-1', 'hk_1');
      expect(key).toMatchObject({ environmentId: dev.id, hint: 'hk_1', revokedAt: null });
      expect(await repo.addApiKey(prod.id, 'hash-1', 'other')).toEqual(key);
      await repo.addApiKey(prod.id, 'hash-2', 'hk_2');
      expect(await repo.findCallerByKeyHash('hash-1')).toEqual({ environmentId: dev.id, organizationId: organization.id, idempotencyEnabled: true });
      expect(await repo.findCallerByKeyHash('unknown')).toBeNull();
      expect((await repo.listApiKeys(dev.id)).map((k) => k.id)).toEqual([key.id]);
      expect(await repo.revokeApiKey(key.id, '00000000-0000-4000-8000-000000000000')).toBe(false);
      expect(await repo.revokeApiKey(key.id, dev.id)).toBe(true);
      expect(await repo.revokeApiKey(key.id)).toBe(false);
      expect(await repo.revokeApiKey('not-an-id')).toBe(false);
      expect(await repo.findCallerByKeyHash('hash-1')).toBeNull();
      const [revoked] = await repo.listApiKeys(dev.id);
      expect(revoked.revokedAt).toBeInstanceOf(Date);
      expect(await repo.findCallerByKeyHash('hash-2')).toMatchObject({ environmentId: prod.id });
    });

    it("returns the secrets of an environment's unrevoked keys that have one; a key added again gets its secret", async () => {
      const repo = await setup();
      const { environments } = await repo.bootstrap(spec);
      const [dev, prod] = bySlug(environments);
      await repo.addApiKey(dev.id, 'no-secret', 'a');
      const revoked = await repo.addApiKey(dev.id, 'revoked', 'b', 'secret-revoked');
      await repo.addApiKey(dev.id, 'kept', 'c', 'secret-kept');
      await repo.addApiKey(prod.id, 'elsewhere', 'd', 'secret-elsewhere');
      await repo.revokeApiKey(revoked.id);
      expect(await repo.apiKeySecrets(dev.id)).toEqual(['secret-kept']);
      await repo.addApiKey(dev.id, 'no-secret', 'a', 'secret-late');
      await repo.addApiKey(dev.id, 'kept', 'c', 'secret-ignored');
      expect((await repo.apiKeySecrets(dev.id)).sort()).toEqual(['secret-kept', 'secret-late']);
    });
  });
}
