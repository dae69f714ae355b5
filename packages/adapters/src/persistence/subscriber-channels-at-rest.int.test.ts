import type { ChannelSettings } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { TEST_ENCRYPTION_KEY, testChannelCipher } from '../testing/test-channel-cipher';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaChannelEndpointRepository } from './prisma-channel-endpoint-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { sealChannelSecrets } from './seal-channel-secrets';

const database = useTestDatabase();
const PUSH = '00000000-0000-4000-8000-0000000000f1';
const CHAT = '00000000-0000-4000-8000-0000000000c1';
const SECRETS = ['fcm-token-1', 'fcm-token-2', 'hooks.example.com/T0/B0/secret', 'C0123CHAN'];
const push = (...deviceTokens: string[]): ChannelSettings => ({ providerId: 'fcm', _integrationId: PUSH, credentials: { deviceTokens } });
const chat: ChannelSettings = { providerId: 'slack', _integrationId: CHAT, credentials: { webhookUrl: 'https://hooks.example.com/T0/B0/secret', channel: 'C0123CHAN' } };

let env: string;
let repo: PrismaSubscriberRepository;
const raw = async (subscriberId: string) =>
  (await database.db.pool.query<{ id: string; channels: ChannelSettings[] }>('SELECT id, channels FROM subscribers WHERE environment_id = $1 AND subscriber_id = $2', [env, subscriberId])).rows[0];
const expectNoPlainText = async (subscriberId: string) => {
  const text = JSON.stringify((await raw(subscriberId)).channels);
  for (const secret of SECRETS) expect(text).not.toContain(secret);
};

beforeAll(async () => {
  const { environments } = await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
  env = environments[0].id;
  repo = new PrismaSubscriberRepository(database.db.prisma, database.db.pool, testChannelCipher);
});

describe('subscriber channel credentials at rest', () => {
  it('are stored sealed by insert, update and the bulk upsert, and read back as written', async () => {
    await repo.insert(env, { subscriberId: 'ins', channels: [push('fcm-token-1'), chat] });
    await expectNoPlainText('ins');
    expect((await repo.findById(env, 'ins'))!.channels).toEqual([push('fcm-token-1'), chat]);

    await repo.insert(env, { subscriberId: 'upd' });
    expect((await repo.update(env, 'upd', { channels: [chat, push('fcm-token-2')] }))!.channels).toEqual([chat, push('fcm-token-2')]);
    await expectNoPlainText('upd');

    await repo.upsertMany(env, [{ subscriberId: 'bulk', channels: [push('fcm-token-1')] }]);
    await repo.upsertMany(env, [{ subscriberId: 'bulk', channels: [push('fcm-token-2', 'fcm-token-1'), chat] }]);
    await expectNoPlainText('bulk');
    // The merge in SQL still collects device tokens without duplicates, comparing them sealed.
    expect((await repo.findById(env, 'bulk'))!.channels).toEqual([push('fcm-token-1', 'fcm-token-2'), chat]);
    const page = await repo.search(env, { subscriberId: 'bulk' }, { limit: 10, orderBy: 'subscriberId', orderDirection: 'asc' } as never);
    expect(page.data[0].channels).toEqual([push('fcm-token-1', 'fcm-token-2'), chat]);
  });

  it('removes invalid device tokens by value in one statement, compared sealed', async () => {
    await repo.insert(env, { subscriberId: 'stale', channels: [push('fcm-token-1', 'fcm-token-2'), chat] });
    const { id } = await raw('stale');
    expect(await repo.removeDeviceTokens(env, id, ['fcm-token-1', 'not-there'])).toBe(1);
    expect((await repo.findById(env, 'stale'))!.channels).toEqual([push('fcm-token-2'), chat]);
    await expectNoPlainText('stale');
  });

  it('fails closed on an altered envelope: a CREDENTIALS_UNREADABLE error naming the subscriber, and nothing stored in it', async () => {
    await repo.insert(env, { subscriberId: 'tampered', channels: [chat] });
    const stored = (await raw('tampered')).channels;
    const url = stored[0].credentials.webhookUrl as string;
    const altered = [{ ...stored[0], credentials: { ...stored[0].credentials, webhookUrl: url.slice(0, -3) + (url.endsWith('AAA') ? 'BBB' : 'AAA') } }];
    await database.db.pool.query("UPDATE subscribers SET channels = $2 WHERE environment_id = $1 AND subscriber_id = 'tampered'", [env, JSON.stringify(altered)]);
    const error = await repo.findById(env, 'tampered').catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'CREDENTIALS_UNREADABLE', message: expect.stringMatching(/tampered.*altered/) });
    expect(String((error as Error).message)).not.toContain(url.slice(12));
    // Another installation key reads nothing either.
    const otherKey = new PrismaSubscriberRepository(database.db.prisma, database.db.pool, new ChannelCredentialCipher(Buffer.alloc(32, 9)));
    await expect(otherKey.findById(env, 'ins')).rejects.toMatchObject({ code: 'CREDENTIALS_UNREADABLE', message: expect.stringMatching(/another HERALD_ENCRYPTION_KEY|different encryption key/) });
  });

  it("hold for channel endpoints' addresses too: stored sealed, read back, sealed by the migration when written before", async () => {
    const endpoints = new PrismaChannelEndpointRepository(database.db.prisma, testChannelCipher);
    const [{ id: integrationId }] = (await database.db.pool.query(`INSERT INTO integrations (environment_id, name, identifier, provider_id, channel) VALUES ($1, 'Hooks', 'hooks', 'chat-webhook', 'chat') RETURNING id`, [env])).rows;
    await repo.insert(env, { subscriberId: 'ep' });
    const { id: subscriberRowId } = await raw('ep');
    const address = { url: 'https://hooks.example.com/T0/B0/secret' };
    const base = { integrationId, connectionId: null, subscriberRowId, contextKeys: [], type: 'webhook' as const };
    expect(await endpoints.create(env, { ...base, identifier: 'ep-1', endpoint: address })).toMatchObject({ endpoint: address });
    await endpoints.updateEndpoint(env, 'ep-1', { url: 'https://hooks.example.com/T0/B0/secret/2' });
    const stored = async (identifier: string) => (await database.db.pool.query("SELECT endpoint FROM channel_endpoints WHERE identifier = $1", [identifier])).rows[0].endpoint;
    expect(JSON.stringify(await stored('ep-1'))).not.toContain('hooks.example.com');
    expect((await endpoints.findByIdentifier(env, 'ep-1'))!.endpoint).toEqual({ url: 'https://hooks.example.com/T0/B0/secret/2' });
    await database.db.pool.query(
      `INSERT INTO channel_endpoints (environment_id, identifier, integration_id, subscriber_id, type, endpoint) VALUES ($1, 'ep-old', $2, $3, 'webhook', $4)`,
      [env, integrationId, subscriberRowId, JSON.stringify(address)],
    );
    expect(await sealChannelSecrets(database.db.pool, testChannelCipher)).toMatchObject({ left: 0 });
    expect(await stored('ep-old')).toEqual(testChannelCipher.sealAddress(address));
    expect((await endpoints.findByIdentifier(env, 'ep-old'))!.endpoint).toEqual(address);
  });

  it('are sealed in rows written before, by a migration that is idempotent and safe to run twice at once', async () => {
    const plain = [push('fcm-token-1', 'fcm-token-2'), chat];
    for (let i = 0; i < 7; i++) {
      await database.db.pool.query('INSERT INTO subscribers (environment_id, subscriber_id, channels) VALUES ($1, $2, $3)', [env, `old-${i}`, JSON.stringify(plain)]);
    }
    // Half sealed already (a row written by this version), and a row with no channels.
    await database.db.pool.query('INSERT INTO subscribers (environment_id, subscriber_id, channels) VALUES ($1, $2, $3)', [env, 'old-mixed', JSON.stringify([push(testChannelCipher.sealValue('fcm-token-1'), 'fcm-token-2')])]);
    await database.db.pool.query("INSERT INTO subscribers (environment_id, subscriber_id) VALUES ($1, 'old-none')", [env]);
    const versions = async () => (await database.db.pool.query('SELECT subscriber_id, version FROM subscribers ORDER BY subscriber_id')).rows;
    const before = await versions();

    const cipher = new ChannelCredentialCipher(TEST_ENCRYPTION_KEY);
    const runs = await Promise.all([sealChannelSecrets(database.db.pool, cipher, 3), sealChannelSecrets(database.db.pool, cipher, 2)]);
    expect(runs.every((r) => r.left === 0)).toBe(true);
    expect(runs[0].sealed + runs[1].sealed).toBeGreaterThanOrEqual(8);
    for (let i = 0; i < 7; i++) {
      await expectNoPlainText(`old-${i}`);
      expect((await repo.findById(env, `old-${i}`))!.channels).toEqual(plain);
    }
    await expectNoPlainText('old-mixed');
    expect((await repo.findById(env, 'old-mixed'))!.channels).toEqual([push('fcm-token-1', 'fcm-token-2')]);
    expect((await raw('old-mixed')).channels).toEqual(testChannelCipher.seal([push('fcm-token-1', 'fcm-token-2')]));
    // Run again: nothing left to do, and no subscriber's version moved.
    expect(await sealChannelSecrets(database.db.pool, cipher)).toEqual({ sealed: 0, left: 0 });
    expect(await versions()).toEqual(before);
  });
});
