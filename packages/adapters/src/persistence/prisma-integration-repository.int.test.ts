import { randomBytes } from 'node:crypto';
import { providerCatalogue, type NewIntegration } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaIntegrationRepository } from './prisma-integration-repository';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';

const handle = useTestDatabase();
const catalogue = providerCatalogue('herald');
let repo: PrismaIntegrationRepository;
let envs: string[];

const smtp = (identifier: string, primary = false): NewIntegration => ({
  name: identifier,
  identifier,
  providerId: 'nodemailer',
  channel: 'email',
  kind: 'delivery',
  credentials: { host: 'smtp.example.com', port: '587', from: 'a@example.com', password: 'hunter2-secret' },
  configurations: {},
  active: true,
  primary,
  conditions: [{ isNegated: false, type: 'TEXT', value: 'AND', children: [{ field: 'plan', value: 'pro', operator: 'EQUAL', on: 'payload' }] }],
});

beforeAll(async () => {
  repo = new PrismaIntegrationRepository(handle.db.prisma, new AesGcmCredentialCipher(randomBytes(32)));
  const { environments } = await new PrismaTenancyRepository(handle.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [
      { name: 'Development', slug: 'development', signingSecret: 's1' },
      { name: 'Production', slug: 'production', signingSecret: 's2' },
    ],
  });
  envs = environments.map((e) => e.id);
});

describe('PrismaIntegrationRepository', () => {
  it('creates the built-ins of many environments once, each primary', async () => {
    expect(await repo.ensureBuiltIns(envs, catalogue.builtIns)).toBe(6);
    expect(await repo.ensureBuiltIns(envs, catalogue.builtIns)).toBe(0);
    for (const env of envs) {
      expect((await repo.list(env)).map((i) => [i.identifier, i.channel, i.primary, i.active])).toEqual([
        ['herald', 'in_app', true, true],
        ['herald-email', 'email', true, true],
        ['herald-sms', 'sms', true, true],
      ]);
    }
    expect(await repo.activeChannels(envs[0])).toEqual(new Set(['in_app', 'email', 'sms']));
  });

  it('stores credentials only encrypted and reads them back decrypted', async () => {
    const created = await repo.create(envs[0], smtp('smtp-a'));
    expect(created?.credentials.password).toBe('hunter2-secret');
    expect(created?.conditions[0].children[0].field).toBe('plan');
    const { rows } = await handle.db.pool.query('SELECT row_to_json(i)::text AS row FROM integrations i WHERE id = $1', [created!.id]);
    expect(rows[0].row).not.toContain('hunter2-secret');
    expect(rows[0].row).not.toContain('smtp.example.com');
    expect((await repo.find(envs[0], created!.id))?.credentials).toEqual(created?.credentials);
    expect((await repo.find(envs[0], 'smtp-a'))?.id).toBe(created?.id);
    expect(await repo.find(envs[1], 'smtp-a')).toBeNull();
    expect(await repo.create(envs[0], smtp('smtp-a'))).toBeNull();
  });

  it('keeps one primary per channel: a primary newcomer and set-primary demote the old one', async () => {
    const b = await repo.create(envs[0], smtp('smtp-b', true));
    const primaries = async () => (await repo.findDeliveryCandidates(envs[0], 'email')).filter((i) => i.primary).map((i) => i.identifier);
    expect(await primaries()).toEqual(['smtp-b']);
    expect((await repo.findDeliveryCandidates(envs[0], 'email'))[0].identifier).toBe('smtp-b');
    await Promise.all([repo.setPrimary(envs[0], (await repo.find(envs[0], 'smtp-a'))!.id), repo.setPrimary(envs[0], b!.id)]);
    expect(await primaries()).toHaveLength(1);
    await repo.setPrimary(envs[0], (await repo.find(envs[0], 'herald-email'))!.id);
    expect(await primaries()).toEqual(['herald-email']);
  });

  it('update refuses a taken identifier and deactivating drops primary', async () => {
    const a = (await repo.find(envs[0], 'smtp-a'))!;
    await expect(repo.update(envs[0], a.id, { identifier: 'smtp-b' })).rejects.toMatchObject({ code: 'INTEGRATION_ALREADY_EXISTS' });
    const email = (await repo.find(envs[0], 'herald-email'))!;
    expect(await repo.update(envs[0], email.id, { active: false })).toMatchObject({ active: false, primary: false });
    expect(await repo.update(envs[1], a.id, { name: 'other env' })).toBeNull();
  });

  it('soft delete keeps the row, hides it, and frees the identifier', async () => {
    const a = (await repo.find(envs[0], 'smtp-a'))!;
    expect(await repo.softDelete(envs[0], a.id, 'tester')).toBe(true);
    expect(await repo.softDelete(envs[0], a.id)).toBe(false);
    expect(await repo.find(envs[0], a.id)).toBeNull();
    const { rows } = await handle.db.pool.query('SELECT deleted, deleted_by FROM integrations WHERE id = $1', [a.id]);
    expect(rows).toEqual([{ deleted: true, deleted_by: 'tester' }]);
    expect(await repo.create(envs[0], smtp('smtp-a'))).not.toBeNull();
  });
});
