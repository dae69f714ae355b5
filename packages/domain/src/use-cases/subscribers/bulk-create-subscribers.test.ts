import { describe, expect, it } from 'vitest';
import { DomainError } from '../../errors';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import { BulkCreateSubscribers } from './bulk-create-subscribers';

describe('BulkCreateSubscribers', () => {
  it('creates new, updates existing, and fails only the invalid items', async () => {
    const repo = new InMemorySubscriberRepository();
    await repo.insert('env', { subscriberId: 'old', firstName: 'Old' });
    const result = await new BulkCreateSubscribers(repo).execute({
      environmentId: 'env',
      subscribers: [
        { subscriberId: 'new', email: 'new@example.com' },
        { subscriberId: 'old', firstName: 'Renamed' },
        { subscriberId: 'bad', email: 'nope' },
        { unreadable: 'data: must be an object or null', subscriberId: 'shape' },
        { firstName: 'no id' },
      ],
    });
    expect(result.created).toEqual([{ subscriberId: 'new' }]);
    expect(result.updated).toEqual([{ subscriberId: 'old' }]);
    expect(result.failed).toEqual([
      { subscriberId: 'bad', message: 'email must be a valid email address' },
      { subscriberId: 'shape', message: 'data: must be an object or null' },
      { subscriberId: undefined, message: 'subscriberId is required' },
    ]);
    expect(await repo.findById('env', 'shape')).toBeNull();
    expect((await repo.findById('env', 'old'))?.firstName).toBe('Renamed');
    expect(await repo.findById('env', 'bad')).toBeNull();
  });

  it('refuses more than 500 items, naming the limit', async () => {
    const items = Array.from({ length: 501 }, (_, i) => ({ subscriberId: `s${i}` }));
    const error = await new BulkCreateSubscribers(new InMemorySubscriberRepository())
      .execute({ environmentId: 'env', subscribers: items })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).fields?.subscribers.messages[0]).toMatch(/at most 500/);
  });
});
