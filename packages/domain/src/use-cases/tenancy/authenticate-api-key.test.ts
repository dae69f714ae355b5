import { describe, expect, it } from 'vitest';
import type { Caller } from '../../entities/tenancy';
import { DomainError } from '../../errors';
import type { TenancyRepository } from '../../ports/tenancy-repository';
import { hashApiKey } from './api-keys';
import { AuthenticateApiKey } from './authenticate-api-key';

const caller: Caller = { organizationId: 'org', environmentId: 'env', idempotencyEnabled: true };

function tenancy(keys: Record<string, Caller>, calls: string[] = []): TenancyRepository {
  return {
    findCallerByKeyHash: async (hash) => {
      calls.push(hash);
      return keys[hash] ?? null;
    },
  } as TenancyRepository;
}

describe('AuthenticateApiKey', () => {
  it('resolves a valid key to its environment and caches the lookup', async () => {
    const calls: string[] = [];
    const auth = new AuthenticateApiKey(tenancy({ [hashApiKey('secret')]: caller }, calls));
    expect(await auth.execute('ApiKey secret')).toEqual(caller);
    expect(await auth.execute('apikey secret')).toEqual(caller);
    expect(calls).toHaveLength(1);
  });

  it.each([undefined, 'Bearer secret', 'ApiKey', 'ApiKey wrong'])('rejects %s', async (header) => {
    const auth = new AuthenticateApiKey(tenancy({ [hashApiKey('secret')]: caller }));
    const error = await auth.execute(header).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe('UNAUTHORIZED');
  });

  it('shares one lookup between requests that miss the cache together, and does not keep a failed one', async () => {
    const calls: string[] = [];
    let fail = true;
    const repository = tenancy({ [hashApiKey('secret')]: caller }, calls);
    const auth = new AuthenticateApiKey({
      findCallerByKeyHash: async (hash: string) => {
        if (fail) {
          calls.push(hash);
          throw new Error('connection lost');
        }
        return repository.findCallerByKeyHash(hash);
      },
    } as TenancyRepository);
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
    const keys = { [hashApiKey('secret')]: caller };
    const auth = new AuthenticateApiKey(tenancy(keys), 1000, () => now);
    await auth.execute('ApiKey secret');
    delete keys[hashApiKey('secret')];
    now = 1001;
    await expect(auth.execute('ApiKey secret')).rejects.toThrow('not valid');
  });
});
