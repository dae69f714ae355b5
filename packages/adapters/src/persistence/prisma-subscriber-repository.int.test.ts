import { expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { upsertSubscribers } from './subscriber-upsert';

const database = useTestDatabase();

it('leaves a subscriber that an item would not change as it is (no new row version, no lock waited for), and updates it when the item changes it', async () => {
  const { pool, prisma } = database.db;
  const { environments } = await new PrismaTenancyRepository(prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's1' }],
  });
  const env = environments[0].id;
  const channels = [{ providerId: 'slack', _integrationId: '7c4d5f3e-58a4-4d57-9f5f-1f0b7f2b6d1a', credentials: { webhookUrl: 'https://hooks.example/a' } }];
  const item = { subscriberId: 'same', firstName: 'Ada', email: 'ada@example.com', data: { tier: 'gold', list: [1, null] }, channels };
  expect(await upsertSubscribers(pool, env, [item])).toEqual({ created: ['same'], updated: [] });
  const stored = async () =>
    (await pool.query<{ version: number; updated_at: Date; xmin: string; first_name: string }>("SELECT version, updated_at, xmin::text, first_name FROM subscribers WHERE subscriber_id = 'same'")).rows[0];
  const before = await stored();

  // Another transaction holds the row: applying the same item again must neither wait for it nor write.
  const holder = await pool.connect();
  try {
    await holder.query('BEGIN');
    await holder.query("SELECT 1 FROM subscribers WHERE subscriber_id = 'same' FOR UPDATE");
    // The same attributes, its data's keys in another order.
    const again = upsertSubscribers(pool, env, [{ ...item, data: { list: [1, null], tier: 'gold' } }]);
    const outcome = await Promise.race([again, new Promise((resolve) => setTimeout(() => resolve('blocked'), 3_000))]);
    expect(outcome).toEqual({ created: [], updated: ['same'] });
  } finally {
    await holder.query('ROLLBACK');
    holder.release();
  }
  expect(await stored()).toEqual(before);

  // An item that changes an attribute updates the row: a new version and update time.
  expect(await upsertSubscribers(pool, env, [{ subscriberId: 'same', firstName: 'Grace' }])).toEqual({ created: [], updated: ['same'] });
  const after = await stored();
  expect(after).toMatchObject({ version: before.version + 1, first_name: 'Grace' });
  expect(after.updated_at.getTime()).toBeGreaterThan(before.updated_at.getTime());
});
