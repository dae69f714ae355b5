import { describe, expect, it } from 'vitest';
import type { ActivityFilter, ActivityPage } from '../../entities/activity';
import type { ActivityRepository } from '../../ports/activity-repository';
import { ListActivity } from './list-activity';

/** Records what the use case asks the repository for. */
function recording() {
  const calls: Array<{ filter: ActivityFilter; page: ActivityPage }> = [];
  const repo: ActivityRepository = {
    async list(_env, filter, page) {
      calls.push({ filter, page });
      return { notifications: [], hasMore: false };
    },
    findById: async () => null,
    triggerProgress: async () => null,
  };
  return { repo, calls };
}

describe('ListActivity', () => {
  it('defaults to the first page of 10 and passes no filter that was not given', async () => {
    const { repo, calls } = recording();
    expect(await new ListActivity(repo).execute({ environmentId: 'e', filter: {} })).toEqual({ notifications: [], hasMore: false, page: 0, pageSize: 10 });
    expect(Object.values(calls[0].filter).filter((v) => v !== undefined)).toEqual([]);
    expect(calls[0].page).toEqual({ page: 0, limit: 10 });
  });

  it('normalises filters: context keys sorted, duplicates and blanks dropped', async () => {
    const { repo, calls } = recording();
    await new ListActivity(repo).execute({
      environmentId: 'e',
      filter: { contextKeys: ['tenant:acme', 'app:web', 'app:web'], subscriberIds: ['ada', ' ', 'ada'], emails: [''], transactionId: '  ', topicKey: 'vip' },
    });
    expect(calls[0].filter).toMatchObject({ contextKeys: ['app:web', 'tenant:acme'], subscriberIds: ['ada'], emails: undefined, transactionId: undefined, topicKey: 'vip' });
  });

  it.each([
    [{ limit: 0 }, 'limit'],
    [{ limit: 51 }, 'limit'],
    [{ page: -1 }, 'page'],
    [{ filter: { after: new Date('2030-01-02'), before: new Date('2030-01-01') } }, 'after'],
  ])('refuses %o naming %s', async (input, field) => {
    const { repo } = recording();
    await expect(new ListActivity(repo).execute({ environmentId: 'e', filter: {}, ...input })).rejects.toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: { [field]: expect.anything() },
    });
  });

});
