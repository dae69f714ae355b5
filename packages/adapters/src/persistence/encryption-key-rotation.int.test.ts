import type { ChannelSettings } from '@herald/domain';
import { beforeAll, describe, expect, it } from 'vitest';
import { AesGcmCredentialCipher } from '../security/aes-gcm-credential-cipher';
import { ChannelCredentialCipher } from '../security/channel-credential-cipher';
import { EncryptionKeyring, keyId } from '../security/encryption-keyring';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaChannelEndpointRepository } from './prisma-channel-endpoint-repository';
import { PrismaIntegrationRepository } from './prisma-integration-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { encryptionKeyStatus, rotateEncryptionKeys } from './rotate-encryption-keys';

const database = useTestDatabase();
const A = Buffer.alloc(32, 0xa);
const B = Buffer.alloc(32, 0xb);
const PUSH = '00000000-0000-4000-8000-0000000000f1';
const push = (...deviceTokens: string[]): ChannelSettings => ({ providerId: 'fcm', _integrationId: PUSH, credentials: { deviceTokens } });
const address = { url: 'https://hooks.example.com/T0/B0/secret' };

/** The repositories a process with this keyring uses. */
function processWith(keys: Buffer | EncryptionKeyring) {
  const { prisma, pool } = database.db;
  const channels = new ChannelCredentialCipher(keys);
  const cipher = new AesGcmCredentialCipher(keys);
  return {
    subscribers: new PrismaSubscriberRepository(prisma, pool, channels),
    endpoints: new PrismaChannelEndpointRepository(prisma, channels),
    integrations: new PrismaIntegrationRepository(prisma, cipher),
    tenancy: new PrismaTenancyRepository(prisma, cipher),
  };
}

let env: string;
const rowId = async (subscriberId: string) => (await database.db.pool.query('SELECT id FROM subscribers WHERE environment_id = $1 AND subscriber_id = $2', [env, subscriberId])).rows[0].id as string;
const storedText = async () =>
  JSON.stringify((await database.db.pool.query(`SELECT (SELECT jsonb_agg(channels) FROM subscribers) AS s, (SELECT jsonb_agg(endpoint) FROM channel_endpoints) AS e, (SELECT jsonb_agg(credentials) FROM integrations) AS i, (SELECT jsonb_agg(secret_encrypted) FROM api_keys) AS k`)).rows[0]);

beforeAll(async () => {
  const { environments } = await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }],
  });
  env = environments[0].id;
});

describe('rotating the encryption key', () => {
  it('reads what key A wrote under [B, previous A], compares and removes during the rotation, re-encrypts, then needs B alone', async () => {
    const underA = processWith(A);
    await underA.subscribers.insert(env, { subscriberId: 'sub', channels: [push('token-1', 'token-2')] });
    await underA.subscribers.insert(env, { subscriberId: 'stale', channels: [push('token-1', 'token-2')] });
    await underA.subscribers.insert(env, { subscriberId: 'merged', channels: [push('token-1')] });
    const [{ id: integrationId }] = (await database.db.pool.query(`INSERT INTO integrations (environment_id, name, identifier, provider_id, channel) VALUES ($1, 'Hooks', 'hooks', 'chat-webhook', 'chat') RETURNING id`, [env])).rows;
    await underA.endpoints.create(env, { integrationId, connectionId: null, subscriberRowId: await rowId('sub'), contextKeys: [], type: 'webhook', identifier: 'ep-1', endpoint: address });
    await database.db.pool.query('UPDATE integrations SET credentials = $2 WHERE id = $1', [integrationId, new AesGcmCredentialCipher(A).encrypt({ apiKey: 'SG.secret' })]);
    await underA.tenancy.addApiKey(env, 'hash-1', 'hk_1', 'api-key-secret');

    // B is current; A only reads.
    const rotating = processWith(new EncryptionKeyring(B, [A]));
    expect((await rotating.subscribers.findById(env, 'sub'))!.channels).toEqual([push('token-1', 'token-2')]);
    expect((await rotating.endpoints.findByIdentifier(env, 'ep-1'))!.endpoint).toEqual(address);
    expect((await rotating.integrations.find(env, 'hooks'))!.credentials).toEqual({ apiKey: 'SG.secret' });
    expect(await rotating.tenancy.apiKeySecrets(env)).toEqual(['api-key-secret']);
    // A token sealed under A is removed by value by a process whose current key is B.
    expect(await rotating.subscribers.removeDeviceTokens(env, await rowId('stale'), ['token-1'])).toBe(1);
    expect((await rotating.subscribers.findById(env, 'stale'))!.channels).toEqual([push('token-2')]);
    // Merging the same token under B into a row holding it under A: one device once opened.
    await rotating.subscribers.upsertMany(env, [{ subscriberId: 'merged', channels: [push('token-1', 'token-3')] }]);
    expect((await rotating.subscribers.findById(env, 'merged'))!.channels).toEqual([push('token-1', 'token-3')]);

    const counts = async () => {
      const byKey: Record<string, number> = {};
      for (const s of await encryptionKeyStatus(database.db.pool)) byKey[s.key] = (byKey[s.key] ?? 0) + s.values;
      return byKey;
    };
    expect((await counts())[keyId(A)]).toBe(7);

    // Two runs at once (and a re-run) leave every value under B, and nothing half-written.
    const ring = new EncryptionKeyring(B, [A]);
    const runs = await Promise.all([rotateEncryptionKeys(database.db.pool, ring, 2), rotateEncryptionKeys(database.db.pool, ring, 1)]);
    for (const run of runs) expect(run.every((r) => r.left === 0 && r.unreadable.length === 0)).toBe(true);
    expect(Object.keys(await counts())).toEqual([keyId(B)]);
    expect((await rotateEncryptionKeys(database.db.pool, ring)).every((r) => r.rewritten === 0)).toBe(true);
    expect(await storedText()).not.toMatch(/token-|hooks\.example|SG\.secret|api-key-secret/);

    const afterwards = processWith(B);
    expect((await afterwards.subscribers.findById(env, 'sub'))!.channels).toEqual([push('token-1', 'token-2')]);
    expect((await afterwards.subscribers.findById(env, 'merged'))!.channels).toEqual([push('token-1', 'token-3')]);
    expect((await afterwards.endpoints.findByIdentifier(env, 'ep-1'))!.endpoint).toEqual(address);
    expect((await afterwards.integrations.find(env, 'hooks'))!.credentials).toEqual({ apiKey: 'SG.secret' });
    expect(await afterwards.tenancy.apiKeySecrets(env)).toEqual(['api-key-secret']);
  });

  it('reports a value no key of the ring opens, leaves it, and reads it as the clear CREDENTIALS_UNREADABLE error', async () => {
    const lost = Buffer.alloc(32, 0xc);
    await processWith(lost).subscribers.insert(env, { subscriberId: 'lost', channels: [push('token-9')] });
    const report = await rotateEncryptionKeys(database.db.pool, new EncryptionKeyring(B, [A]));
    expect(report.find((r) => r.table === 'subscribers')).toMatchObject({ rewritten: 0, left: 0, unreadable: [await rowId('lost')] });
    await expect(processWith(new EncryptionKeyring(B, [A])).subscribers.findById(env, 'lost')).rejects.toMatchObject({ code: 'CREDENTIALS_UNREADABLE' });
    await database.db.pool.query("DELETE FROM subscribers WHERE subscriber_id = 'lost'");
  });
});
