import { describe, expect, it } from 'vitest';
import type { ChannelSettings } from '../entities/subscriber';
import type { SubscriberOrderBy, SubscriberRepository } from '../ports/subscriber-repository';
import type { CursorQuery } from '../shared/pagination';
import { expectCursorPagination } from './cursor-page-contract';

export interface SubscriberRepositoryFixture {
  repo: SubscriberRepository;
  /** Two environments of their own: nothing else writes there. */
  environments: [string, string];
}

const INTEGRATION_A = '7c4d5f3e-58a4-4d57-9f5f-1f0b7f2b6d1a';
const INTEGRATION_B = '1f0b7f2b-6d1a-4d57-9f5f-7c4d5f3e58a4';
const push = (integration: string, tokens: string[], extra: Record<string, string> = {}): ChannelSettings => ({
  providerId: 'fcm',
  _integrationId: integration,
  credentials: { deviceTokens: tokens, ...extra },
});

/** The behaviour every SubscriberRepository has; run against the in-memory double and the SQL adapter. */
export function subscriberRepositoryContract(name: string, setup: () => Promise<SubscriberRepositoryFixture>): void {
  describe(`SubscriberRepository contract: ${name}`, () => {
    it('inserts with every attribute given and the rest null, and refuses a taken subscriberId without changing it', async () => {
      const { repo, environments: [env] } = await setup();
      const inserted = await repo.insert(env, { subscriberId: 'ada', firstName: 'Ada', data: { tier: 'gold' }, channels: [push(INTEGRATION_A, ['t1'])] });
      expect(inserted).toMatchObject({
        environmentId: env,
        subscriberId: 'ada',
        firstName: 'Ada',
        lastName: null,
        email: null,
        data: { tier: 'gold' },
        channels: [push(INTEGRATION_A, ['t1'])],
        isOnline: null,
        lastOnlineAt: null,
        deleted: false,
      });
      expect(await repo.findById(env, 'ada')).toEqual(inserted);
      expect(await repo.insert(env, { subscriberId: 'ada', firstName: 'Other' })).toBeNull();
      expect(await repo.findById(env, 'ada')).toEqual(inserted);
      expect(await repo.findById(env, 'nobody')).toBeNull();
    });

    it('keeps environments apart: the same subscriberId twice, and nothing of one seen or changed from the other', async () => {
      const { repo, environments: [env, other] } = await setup();
      const mine = (await repo.insert(env, { subscriberId: 'ada', firstName: 'Ada' }))!;
      const theirs = await repo.insert(other, { subscriberId: 'ada', firstName: 'Other Ada' });
      expect(theirs).toMatchObject({ environmentId: other, firstName: 'Other Ada' });
      expect(theirs!.id).not.toBe(mine.id);
      await repo.insert(env, { subscriberId: 'bob' });
      expect(await repo.update(other, 'bob', { firstName: 'x' })).toBeNull();
      expect(await repo.setOnline(other, 'bob', true, new Date())).toBeNull();
      expect(await repo.delete(other, 'bob')).toBe(false);
      expect(await repo.removeDeviceTokens(other, mine.id, ['t1'])).toBe(0);
      const listed = await repo.search(other, {}, { limit: 10, orderBy: 'subscriberId', orderDirection: 'ASC', includeCursor: false });
      expect(listed.data.map((s) => [s.subscriberId, s.environmentId])).toEqual([['ada', other]]);
      expect(await repo.findById(env, 'ada')).toEqual(mine);
    });

    it('updates the defined attributes only, clears those given as null, and moves version and update time on', async () => {
      const { repo, environments: [env] } = await setup();
      const before = (await repo.insert(env, { subscriberId: 'ada', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' }))!;
      const after = await repo.update(env, 'ada', { firstName: 'Augusta', email: null, data: { n: 1 } });
      expect(after).toMatchObject({ firstName: 'Augusta', lastName: 'Lovelace', email: null, data: { n: 1 }, version: before.version + 1 });
      expect(after!.updatedAt.getTime()).toBeGreaterThanOrEqual(before.updatedAt.getTime());
      expect(after!.createdAt).toEqual(before.createdAt);
      const channels = [push(INTEGRATION_A, ['t9'])];
      expect((await repo.update(env, 'ada', { channels }))!.channels).toEqual(channels);
      expect(await repo.update(env, 'nobody', { firstName: 'x' })).toBeNull();
    });

    it('upserts many: reports created and updated ids, applies the last item of a subscriber, and leaves an unchanged one as it is', async () => {
      const { repo, environments: [env] } = await setup();
      await repo.insert(env, { subscriberId: 'ada', firstName: 'Ada', email: 'ada@example.com' });
      const unchanged = (await repo.insert(env, { subscriberId: 'cy', firstName: 'Cy' }))!;
      const result = await repo.upsertMany(env, [
        { subscriberId: 'ada', lastName: 'Lovelace' },
        { subscriberId: 'bob', firstName: 'Bob' },
        { subscriberId: 'bob', firstName: 'Robert' },
        { subscriberId: 'cy', firstName: 'Cy' },
      ]);
      expect({ created: result.created.sort(), updated: result.updated.sort() }).toEqual({ created: ['bob'], updated: ['ada', 'cy'] });
      expect(await repo.findById(env, 'ada')).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
      expect(await repo.findById(env, 'bob')).toMatchObject({ firstName: 'Robert' });
      expect(await repo.findById(env, 'cy')).toEqual(unchanged);
    });

    it('upserting channels merges them into the stored ones: credentials field by field, device tokens without duplicates, new ones appended', async () => {
      const { repo, environments: [env] } = await setup();
      await repo.upsertMany(env, [{ subscriberId: 'ada', channels: [push(INTEGRATION_A, ['t1', 't2'], { title: 'old' })] }]);
      await repo.upsertMany(env, [{ subscriberId: 'ada', channels: [push(INTEGRATION_B, ['b1']), push(INTEGRATION_A, ['t2', 't3'], { alertUid: 'u' })] }]);
      const { channels } = (await repo.findById(env, 'ada'))!;
      expect(channels).toEqual([push(INTEGRATION_A, ['t1', 't2', 't3'], { title: 'old', alertUid: 'u' }), push(INTEGRATION_B, ['b1'])]);
    });

    it('sets presence with its time, as a change of the subscriber', async () => {
      const { repo, environments: [env] } = await setup();
      const before = (await repo.insert(env, { subscriberId: 'ada' }))!;
      const at = new Date('2026-03-01T10:00:00.000Z');
      expect(await repo.setOnline(env, 'ada', true, at)).toMatchObject({ isOnline: true, lastOnlineAt: at, version: before.version + 1 });
      expect(await repo.setOnline(env, 'ada', false, at)).toMatchObject({ isOnline: false, lastOnlineAt: at, version: before.version + 2 });
      expect(await repo.setOnline(env, 'nobody', true, at)).toBeNull();
    });

    it('deletes once; the id is free again afterwards', async () => {
      const { repo, environments: [env] } = await setup();
      const first = (await repo.insert(env, { subscriberId: 'ada' }))!;
      expect(await repo.delete(env, 'ada')).toBe(true);
      expect(await repo.delete(env, 'ada')).toBe(false);
      expect(await repo.findById(env, 'ada')).toBeNull();
      expect((await repo.insert(env, { subscriberId: 'ada' }))!.id).not.toBe(first.id);
    });

    it('removes device tokens from every channel setting of the subscriber (by row id) and counts them', async () => {
      const { repo, environments: [env] } = await setup();
      const ada = (await repo.insert(env, { subscriberId: 'ada' }))!;
      await repo.update(env, 'ada', { channels: [push(INTEGRATION_A, ['t1', 't2']), push(INTEGRATION_B, ['t2', 't3']), { providerId: 'slack', _integrationId: INTEGRATION_B, credentials: { webhookUrl: 'https://hooks.example/x' } }] });
      expect(await repo.removeDeviceTokens(env, ada.id, ['t2', 't3', 'unknown'])).toBe(3);
      expect((await repo.findById(env, 'ada'))!.channels.map((c) => c.credentials)).toEqual([
        { deviceTokens: ['t1'] },
        { deviceTokens: [] },
        { webhookUrl: 'https://hooks.example/x' },
      ]);
      expect(await repo.removeDeviceTokens(env, ada.id, ['t2'])).toBe(0);
    });

    it('searches by prefix of email, phone and subscriberId, and by name (first, last, or "first last")', async () => {
      const { repo, environments: [env] } = await setup();
      await repo.insert(env, { subscriberId: 'user-1', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', phone: '+14155550101' });
      await repo.insert(env, { subscriberId: 'user-2', firstName: 'Grace', lastName: 'Hopper', email: 'grace@example.com', phone: '+14155550202' });
      await repo.insert(env, { subscriberId: 'other', firstName: 'Ada', lastName: 'Byron' });
      const ids = async (filter: object) =>
        (await repo.search(env, filter, { limit: 10, orderBy: 'subscriberId', orderDirection: 'ASC', includeCursor: false })).data.map((s) => s.subscriberId);
      expect(await ids({ email: 'grace@' })).toEqual(['user-2']);
      expect(await ids({ phone: '+1415555010' })).toEqual(['user-1']);
      expect(await ids({ subscriberId: 'user-' })).toEqual(['user-1', 'user-2']);
      expect(await ids({ name: 'Ada' })).toEqual(['other', 'user-1']);
      expect(await ids({ name: 'Hop' })).toEqual(['user-2']);
      expect(await ids({ name: 'Ada Love' })).toEqual(['user-1']);
      expect(await ids({ name: 'ada' })).toEqual([]);
    });

    it('pages by cursor in subscriberId order (code units: upper case first) and in creation order', async () => {
      const { repo, environments: [env] } = await setup();
      for (const id of ['b', 'B', 'a', 'c', 'A']) await repo.insert(env, { subscriberId: id });
      const list = (query: CursorQuery<SubscriberOrderBy>) => repo.search(env, {}, query);
      await expectCursorPagination(list, 'subscriberId', ['A', 'B', 'a', 'b', 'c'], (s) => s.subscriberId);
      const all = (await repo.search(env, {}, { limit: 10, orderBy: 'createdAt', orderDirection: 'ASC', includeCursor: false })).data;
      const byCreation = [...all].sort((x, y) => x.createdAt.getTime() - y.createdAt.getTime() || (x.id < y.id ? -1 : 1)).map((s) => s.subscriberId);
      await expectCursorPagination(list, 'createdAt', byCreation, (s) => s.subscriberId);
    });
  });
}
