import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { connectDatabase, type Database } from '../database/database';
import { createTestDatabase } from '../testing/test-database';
import { PrismaPreferenceRepository } from './prisma-preference-repository';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { PrismaTopicRepository } from './prisma-topic-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

let created: Awaited<ReturnType<typeof createTestDatabase>>;
let db: Database;
let env: string;
let otherEnv: string;
let queries = 0;

beforeAll(async () => {
  created = await createTestDatabase(inject('adminDatabaseUrl'));
  db = connectDatabase(created.url, 5);
  const { environments } = await new PrismaTenancyRepository(db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [
      { name: 'Development', slug: 'development', signingSecret: 's1' },
      { name: 'Production', slug: 'production', signingSecret: 's2' },
    ],
  });
  [env, otherEnv] = environments.map((e) => e.id);
  const subscribers = new PrismaSubscriberRepository(db.prisma, db.pool, testChannelCipher);
  await subscribers.upsertMany(env, Array.from({ length: 100 }, (_, i) => ({ subscriberId: `s${i}` })));
  await subscribers.upsertMany(otherEnv, [{ subscriberId: 'elsewhere' }]);
});
afterAll(async () => {
  await db?.close();
  await created?.drop();
});

/** A repository whose raw queries are counted. */
function countingRepository() {
  const pool = Object.create(db.pool) as typeof db.pool;
  pool.query = ((...args: Parameters<typeof db.pool.query>) => {
    queries++;
    return (db.pool.query as (...a: unknown[]) => unknown)(...args);
  }) as typeof db.pool.query;
  return new PrismaTopicRepository(db.prisma, pool);
}

const item = (subscriberId: string) => ({ subscriberId, identifier: `tk_t:si_${subscriberId}`, contextKeys: [] });

describe('PrismaTopicRepository.subscribe', () => {
  it('creates the topic and 100 subscriptions in one statement, reporting unknown and foreign subscribers', async () => {
    const repo = countingRepository();
    queries = 0;
    const items = [...Array.from({ length: 98 }, (_, i) => item(`s${i}`)), item('ghost'), item('elsewhere')];
    const result = await repo.subscribe(env, { key: 't', name: 'T' }, items);
    expect(queries).toBe(1);
    expect(result.topic).toMatchObject({ key: 't', name: 'T' });
    expect(result.subscriptions).toHaveLength(98);
    expect(result.subscriptions[0]).toMatchObject({ identifier: 'tk_t:si_s0', subscriber: { subscriberId: 's0' }, topic: { key: 't' } });
    expect(result.missing).toEqual(['ghost', 'elsewhere']);
  });

  it('updates on a second subscribe, keeps rules unless given, and leaves an identifier owned elsewhere alone', async () => {
    const repo = new PrismaTopicRepository(db.prisma, db.pool);
    const rules = [{ workflowId: 'w', enabled: true }];
    await repo.subscribe(env, { key: 't' }, [item('s1')], rules);
    const again = await repo.subscribe(env, { key: 't' }, [item('s1'), { ...item('s2'), identifier: 'tk_t:si_s3' }]);
    expect(again.topic.name).toBe('T');
    expect(again.subscriptions.map((s) => [s.identifier, s.preferences])).toEqual([['tk_t:si_s1', rules]]);
    expect(again.conflicts.map((c) => c.identifier)).toEqual(['tk_t:si_s3']);
    const count = await db.prisma.topicSubscription.count({ where: { environmentId: env } });
    expect(count).toBe(98);
  });
});

describe('PrismaPreferenceRepository.mergeSubscriberPreference', () => {
  it('keeps one global row per subscriber and merges channels into it', async () => {
    const repo = new PrismaPreferenceRepository(db.prisma, db.pool);
    expect(await repo.mergeSubscriberPreference(env, 's0', null, { email: false })).toBe(true);
    expect(await repo.mergeSubscriberPreference(env, 's0', null, { sms: false, email: true })).toBe(true);
    expect(await repo.mergeSubscriberPreference(env, 'ghost', null, { sms: false })).toBe(false);
    expect(await repo.mergeSubscriberPreference(otherEnv, 's0', null, { sms: false })).toBe(false);
    const stored = await repo.findSubscriberPreferences(env, 's0');
    expect(stored?.global).toEqual({ enabled: null, channels: { email: true, sms: false } });
    expect(await db.prisma.subscriberPreference.count()).toBe(1);
  });
});
