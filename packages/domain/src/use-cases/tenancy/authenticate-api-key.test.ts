import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { InMemoryTenancyRepository } from '../../testing/in-memory-tenancy-repository';
import { hashApiKey } from './api-keys';
import { AuthenticateApiKey } from './authenticate-api-key';

/** The double with one environment holding the key 'secret'; `calls` records each lookup's hash. */
async function tenancy(calls: string[] = []) {
  const repo = new InMemoryTenancyRepository();
  const { environments } = await repo.bootstrap({ organizationName: 'Org', environments: [{ name: 'Development', slug: 'development', signingSecret: 's' }] });
  const key = await repo.addApiKey(environments[0].id, hashApiKey('secret'), 'sec');
  const caller = (await repo.findCallerByKeyHash(hashApiKey('secret')))!;
  const findCallerByKeyHash = repo.findCallerByKeyHash.bind(repo);
  repo.findCallerByKeyHash = async (hash) => {
    calls.push(hash);
    return findCallerByKeyHash(hash);
  };
  return { repo, caller, key };
}

describe('AuthenticateApiKey', () => {
  it('resolves a valid key to its environment and caches the lookup', async () => {
    const calls: string[] = [];
    const { repo, caller } = await tenancy(calls);
    const auth = new AuthenticateApiKey(repo);
    expect(await auth.execute('ApiKey secret')).toEqual(caller);
    expect(await auth.execute('apikey secret')).toEqual(caller);
    expect(calls).toHaveLength(1);
  });

  it.each([undefined, 'Bearer secret', 'ApiKey', 'ApiKey wrong'])('rejects %s', async (header) => {
    const auth = new AuthenticateApiKey((await tenancy()).repo);
    const error = await auth.execute(header).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('UNAUTHORIZED');
  });

  it('shares one lookup between requests that miss the cache together, and does not keep a failed one', async () => {
    const calls: string[] = [];
    let fail = true;
    const { repo: repository, caller } = await tenancy(calls);
    const auth = new AuthenticateApiKey({
      findCallerByKeyHash: async (hash: string) => {
        if (fail) {
          calls.push(hash);
          throw new Error('connection lost');
        }
        return repository.findCallerByKeyHash(hash);
      },
    } as Pick<TenancyRepository, 'findCallerByKeyHash'> as TenancyRepository);
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => auth.execute('ApiKey secret')));
    expect(failed.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
    expect(calls).toHaveLength(1);
    fail = false;
    const callers = await Promise.all(Array.from({ length: 5 }, () => auth.execute('ApiKey secret')));
    expect(callers).toEqual(Array(5).fill(caller));
    expect(calls).toHaveLength(2);
  });

  it('forgets a revoked key after the cache lifetime', async () => {
    let now = 0;
    const { repo, key } = await tenancy();
    const auth = new AuthenticateApiKey(repo, 1000, () => now);
    await auth.execute('ApiKey secret');
    await repo.revokeApiKey(key.id);
    now = 1001;
    await expect(auth.execute('ApiKey secret')).rejects.toThrow('not valid');
  });
});
