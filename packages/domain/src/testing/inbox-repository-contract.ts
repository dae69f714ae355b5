import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inboxOwner, minute, type InboxRepositoryFixture } from './inbox-contract-fixture';
import { inboxChangesContract } from './inbox-repository-changes-contract';

/** The behaviour every InboxRepository has; run against the in-memory double and the SQL adapter. */
export function inboxRepositoryContract(name: string, setup: () => Promise<InboxRepositoryFixture>): void {
  describe(`InboxRepository contract: ${name}`, () => {
    it('knows the owner of an inbox by subscriber id, in its environment only', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const ada = await inboxOwner(fixture, env);
      expect(ada).toEqual({ id: expect.any(String), environmentId: env, subscriberId: 'ada', firstName: 'ADA', lastName: null, avatar: null });
      expect(await fixture.repo.owner(other, 'ada')).toBeNull();
      expect(await fixture.repo.owner(env, 'nobody')).toBeNull();
    });

    it("lists the owner's in-app notifications newest first, in pages by offset or after a notification", async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const ada = await inboxOwner(fixture, env);
      const bob = await inboxOwner(fixture, env, 'bob');
      const ids: string[] = [];
      for (const m of [1, 3, 2, 5, 4]) ids[m] = (await fixture.deliver(ada, { createdAt: minute(m), tags: m % 2 ? ['odd'] : [] })).id;
      await fixture.deliver(ada, { createdAt: minute(6), channel: 'email' });
      await fixture.deliver(bob, { createdAt: minute(7) });
      await fixture.deliver(await inboxOwner(fixture, other), { createdAt: minute(8) });
      const page = (limit: number, after?: string, offset = 0, filter = {}) => fixture.repo.list(ada, filter, { limit, after, offset });
      const listed = (result: Awaited<ReturnType<typeof page>>) => result.notifications.map((n) => n.id);
      const first = await page(2);
      expect(listed(first)).toEqual([ids[5], ids[4]]);
      expect(first.hasMore).toBe(true);
      expect(listed(await page(2, ids[4]))).toEqual([ids[3], ids[2]]);
      const last = await page(2, ids[2]);
      expect({ ids: listed(last), hasMore: last.hasMore }).toEqual({ ids: [ids[1]], hasMore: false });
      expect(listed(await page(2, undefined, 3))).toEqual([ids[2], ids[1]]);
      expect(listed(await page(5, ids[5], 1))).toEqual([ids[3], ids[2], ids[1]]);
      // The cursor need not match the filter: the page continues after it.
      expect(listed(await page(5, ids[4], 0, { tags: [['odd']] }))).toEqual([ids[3], ids[1]]);
      const bobs = (await fixture.repo.list(bob, {}, { limit: 5, offset: 0 })).notifications;
      for (const cursor of [bobs[0].id, randomUUID(), 'not-an-id']) expect(listed(await page(5, cursor))).toEqual([]);
      expect(first.notifications[0]).toMatchObject({ to: ada, channelType: 'in_app', isRead: false, isSeen: false, isArchived: false, isSnoozed: false });
    });

    it('filters and counts by flags, severity, tag groups, contained data, exact context and creation time', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const ada = await inboxOwner(fixture, env);
      const n1 = (await fixture.deliver(ada, { createdAt: minute(1), severity: 'high', tags: ['billing', 'eu'], data: { order: { id: 7, lines: [1, 2] }, kind: 'a' } })).id;
      const n2 = (await fixture.deliver(ada, { createdAt: minute(2), contextKeys: ['app:web', 'tenant:acme'], data: { kind: 'b' } })).id;
      const n3 = (await fixture.deliver(ada, { createdAt: minute(3), severity: 'high', tags: ['news'] })).id;
      await fixture.repo.update(ada, n3, { read: true, seen: true });
      const ids = async (filter: object) => (await fixture.repo.list(ada, filter, { limit: 10, offset: 0 })).notifications.map((n) => n.id);
      expect(await ids({ read: true })).toEqual([n3]);
      expect(await ids({ read: false, seen: false })).toEqual([n2, n1]);
      expect(await ids({ severity: ['high', 'low'] })).toEqual([n3, n1]);
      // Tag groups: one tag of each group (AND of OR).
      expect(await ids({ tags: [['eu', 'news']] })).toEqual([n3, n1]);
      expect(await ids({ tags: [['billing', 'news'], ['eu']] })).toEqual([n1]);
      expect(await ids({ tags: [['billing'], ['news']] })).toEqual([]);
      expect(await ids({ data: { order: { lines: [2] } } })).toEqual([n1]);
      expect(await ids({ data: { kind: 'c' } })).toEqual([]);
      expect(await ids({ contextKeys: ['tenant:acme', 'app:web'] })).toEqual([n2]);
      expect(await ids({ contextKeys: [] })).toEqual([n3, n1]);
      expect(await ids({ createdGte: minute(2), createdLte: minute(2) })).toEqual([n2]);
      expect(await fixture.repo.count(ada, [{}, { read: false }, { severity: ['high'] }, { archived: true }])).toEqual([3, 2, 2, 0]);
    });

    it('finds a notification of the owner only: not another’s, not one outside the context, not a malformed id', async () => {
      const fixture = await setup();
      const [env] = fixture.environments;
      const ada = await inboxOwner(fixture, env);
      const bob = await inboxOwner(fixture, env, 'bob');
      const { id } = await fixture.deliver(ada, { createdAt: minute(1), contextKeys: ['tenant:acme'] });
      const email = await fixture.deliver(ada, { createdAt: minute(2), channel: 'email' });
      expect(await fixture.repo.find(ada, id)).toMatchObject({ id, contextKeys: ['tenant:acme'] });
      expect(await fixture.repo.find(ada, id, ['tenant:acme'])).toMatchObject({ id });
      expect(await fixture.repo.find(ada, id, ['tenant:other'])).toBeNull();
      expect(await fixture.repo.find(bob, id)).toBeNull();
      expect(await fixture.repo.find(ada, email.id)).toBeNull();
      expect(await fixture.repo.find(ada, 'not-an-id')).toBeNull();
      expect(await fixture.repo.update(bob, id, { read: true })).toBeNull();
      expect(await fixture.repo.update(ada, 'not-an-id', { read: true })).toBeNull();
    });

    it('finds the in-app notifications that jobs made, with their owners, in the environment', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const ada = await inboxOwner(fixture, env);
      const bob = await inboxOwner(fixture, env, 'bob');
      const a = await fixture.deliver(ada, { createdAt: minute(1) });
      const b = await fixture.deliver(bob, { createdAt: minute(2) });
      const email = await fixture.deliver(ada, { createdAt: minute(3), channel: 'email' });
      const found = await fixture.repo.findByJobs(env, [a.jobId, b.jobId, email.jobId, 'not-an-id', randomUUID()]);
      expect(found.map((n) => [n.id, n.to]).sort()).toEqual([[a.id, ada], [b.id, bob]].sort());
      expect(await fixture.repo.findByJobs(other, [a.jobId])).toEqual([]);
      expect(await fixture.repo.findByJobs(env, [])).toEqual([]);
    });

    it('counts unarchived, unsnoozed notifications unread per severity and unseen, of each subscriber; one with none is absent', async () => {
      const fixture = await setup();
      const [env, other] = fixture.environments;
      const ada = await inboxOwner(fixture, env);
      const bob = await inboxOwner(fixture, env, 'bob');
      const cy = await inboxOwner(fixture, env, 'cy');
      for (const severity of ['high', 'high', 'none'] as const) await fixture.deliver(ada, { createdAt: minute(1), severity });
      await fixture.deliver(ada, { createdAt: minute(2), severity: 'low', snoozedUntil: minute(60 * 24 * 365 * 100) });
      await fixture.deliver(ada, { createdAt: minute(2), severity: 'low', channel: 'email' });
      const archived = await fixture.deliver(bob, { createdAt: minute(3) });
      await fixture.repo.update(bob, archived.id, { archived: true });
      const read = await fixture.deliver(cy, { createdAt: minute(3), severity: 'medium' });
      await fixture.deliver(cy, { createdAt: minute(4), severity: 'medium' });
      await fixture.repo.update(cy, read.id, { read: true });
      const seen = await fixture.deliver(cy, { createdAt: minute(5), severity: 'high' });
      await fixture.repo.update(cy, seen.id, { seen: true });
      const counts = await fixture.repo.liveCounts(env, [ada.id, bob.id, cy.id, 'not-an-id']);
      expect(Object.fromEntries(counts)).toEqual({
        [ada.id]: { unread: { high: 2, none: 1 }, unseen: 3 },
        // Read without being marked seen still counts unseen; seen without being read still unread.
        [cy.id]: { unread: { medium: 1, high: 1 }, unseen: 2 },
      });
      expect((await fixture.repo.liveCounts(other, [ada.id])).size).toBe(0);
    });

    inboxChangesContract(setup);
  });
}
