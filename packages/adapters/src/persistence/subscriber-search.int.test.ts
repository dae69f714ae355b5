import { beforeAll, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PrismaSubscriberRepository } from './prisma-subscriber-repository';
import { upsertSubscribers } from './subscriber-upsert';
import { PrismaTenancyRepository } from './prisma-tenancy-repository';
import { testChannelCipher } from '../testing/test-channel-cipher';

const database = useTestDatabase();
let repo: PrismaSubscriberRepository;
let env: string;
const page = { limit: 2, orderDirection: 'ASC', orderBy: 'subscriberId', includeCursor: false } as const;

beforeAll(async () => {
  const { environments } = await new PrismaTenancyRepository(database.db.prisma).bootstrap({
    organizationName: 'Org',
    environments: [{ name: 'Development', slug: 'development', signingSecret: 's1' }],
  });
  env = environments[0].id;
  repo = new PrismaSubscriberRepository(database.db.prisma, database.db.pool, testChannelCipher);
  await upsertSubscribers(database.db.pool, env, [
    { subscriberId: 'a', firstName: 'Grace', lastName: 'Hopper', email: 'grace@navy.mil' },
    { subscriberId: 'b', firstName: 'Grace', lastName: 'Kelly', email: 'g_kelly@example.com' },
    { subscriberId: 'c', firstName: 'Ada', lastName: 'Lovelace', email: 'gXkelly@example.com' },
    { subscriberId: 'd', firstName: 'Alan', lastName: 'Gracefield', email: '100%@example.com' },
    { subscriberId: 'e', firstName: 'Edsger', lastName: 'Dijkstra', email: '100x@example.com' },
  ]);
});

describe('subscriber search', () => {
  it.each([
    [{}, ['a', 'b', 'c', 'd', 'e']],
    [{ name: 'Grace' }, ['a', 'b', 'd']],
    [{ name: 'race' }, ['a', 'b', 'd']],
    [{ name: 'Grace Ho' }, ['a']],
    [{ name: 'grace' }, []],
    [{ email: 'g_' }, ['b']],
    [{ email: '100%' }, ['d']],
    [{ subscriberId: '_' }, []],
  ])('%j finds %j, and counts as many as it finds', async (filter, expected) => {
    const found: string[] = [];
    let after: string | undefined;
    let totalCount = -1;
    do {
      const result = await repo.search(env, filter, { ...page, after });
      found.push(...result.data.map((s) => s.subscriberId));
      totalCount = result.totalCount;
      after = result.next ?? undefined;
    } while (after);
    expect(found).toEqual(expected);
    expect(totalCount).toBe(expected.length);
  });
});
