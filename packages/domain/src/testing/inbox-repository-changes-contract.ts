import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { inboxOwner, minute, type InboxRepositoryFixture } from './inbox-contract-fixture';

/** The changing half of the InboxRepository contract: patches with their timestamps, bulk changes, actions, deletes. */
export function inboxChangesContract(setup: () => Promise<InboxRepositoryFixture>): void {
  it('reads, sees and archives with timestamps set once, and clears them on unread and unarchive', async () => {
    const fixture = await setup();
    const [env] = fixture.environments;
    const ada = await inboxOwner(fixture, env);
    const { id } = await fixture.deliver(ada, { createdAt: minute(1) });
    const read = (await fixture.repo.update(ada, id, { read: true, seen: true, archived: true }))!;
    expect(read).toMatchObject({ isRead: true, isSeen: true, isArchived: true });
    for (const at of [read.readAt, read.firstSeenAt, read.archivedAt]) expect(at).toBeInstanceOf(Date);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const again = (await fixture.repo.update(ada, id, { read: true, seen: true, archived: true }))!;
    expect([again.readAt, again.firstSeenAt, again.archivedAt]).toEqual([read.readAt, read.firstSeenAt, read.archivedAt]);
    const undone = (await fixture.repo.update(ada, id, { read: false, archived: false }))!;
    expect(undone).toMatchObject({ isRead: false, readAt: null, isArchived: false, archivedAt: null, isSeen: true, firstSeenAt: read.firstSeenAt });
    expect(await fixture.repo.find(ada, id)).toEqual(undone);
  });

  it('snoozes until a time, after which the notification is no longer snoozed by itself', async () => {
    const fixture = await setup();
    const [env] = fixture.environments;
    const ada = await inboxOwner(fixture, env);
    const { id } = await fixture.deliver(ada, { createdAt: minute(1) });
    const lapsed = await fixture.deliver(ada, { createdAt: minute(2), snoozedUntil: new Date(Date.now() - 60_000) });
    const until = new Date(Date.now() + 3_600_000);
    expect(await fixture.repo.update(ada, id, { snoozedUntil: until })).toMatchObject({ isSnoozed: true, snoozedUntil: until });
    const ids = async (filter: object) => (await fixture.repo.list(ada, filter, { limit: 10, offset: 0 })).notifications.map((n) => n.id);
    expect(await ids({ snoozed: true })).toEqual([id]);
    expect(await ids({ snoozed: false })).toEqual([lapsed.id]);
    expect(await fixture.repo.find(ada, lapsed.id)).toMatchObject({ isSnoozed: false });
    expect(await fixture.repo.update(ada, id, { snoozedUntil: null })).toMatchObject({ isSnoozed: false, snoozedUntil: null });
    expect(await fixture.repo.count(ada, [{ snoozed: true }])).toEqual([0]);
  });

  it("changes every selected notification of the owner's in one go, and says how many", async () => {
    const fixture = await setup();
    const [env] = fixture.environments;
    const ada = await inboxOwner(fixture, env);
    const bob = await inboxOwner(fixture, env, 'bob');
    const billing = (await fixture.deliver(ada, { createdAt: minute(1), tags: ['billing'], data: { kind: 'invoice', n: 1 } })).id;
    const acme = (await fixture.deliver(ada, { createdAt: minute(2), contextKeys: ['tenant:acme'] })).id;
    const plain = (await fixture.deliver(ada, { createdAt: minute(3) })).id;
    const bobs = (await fixture.deliver(bob, { createdAt: minute(4), tags: ['billing'] })).id;
    expect(await fixture.repo.updateMany(ada, { ids: [billing, bobs, 'not-an-id', randomUUID()] }, { read: true })).toBe(1);
    expect(await fixture.repo.updateMany(ada, { ids: ['not-an-id'] }, { read: true })).toBe(0);
    expect(await fixture.repo.updateMany(ada, { data: { kind: 'invoice' } }, { seen: true })).toBe(1);
    expect(await fixture.repo.updateMany(ada, { contextKeys: ['tenant:acme'] }, { read: true })).toBe(1);
    expect(await fixture.repo.updateMany(ada, { onlyRead: true }, { archived: true })).toBe(2);
    expect(await fixture.repo.updateMany(ada, {}, { seen: true })).toBe(3);
    const state = async (owner: typeof ada, id: string) => {
      const n = (await fixture.repo.find(owner, id))!;
      return [n.isRead, n.isSeen, n.isArchived];
    };
    expect([await state(ada, billing), await state(ada, acme), await state(ada, plain)]).toEqual([
      [true, true, true],
      [true, true, true],
      [false, true, false],
    ]);
    expect(await state(bob, bobs)).toEqual([false, false, false]);
  });

  it('completes an action the notification has; null without one, or for a notification not found', async () => {
    const fixture = await setup();
    const [env] = fixture.environments;
    const ada = await inboxOwner(fixture, env);
    const bob = await inboxOwner(fixture, env, 'bob');
    const primaryAction = { label: 'Open', isCompleted: false, redirect: { url: 'https://app.example/x' } };
    const { id } = await fixture.deliver(ada, { createdAt: minute(1), primaryAction, contextKeys: ['tenant:acme'] });
    expect((await fixture.repo.setActionCompleted(ada, id, 'primary', true))!.primaryAction).toEqual({ ...primaryAction, isCompleted: true });
    expect((await fixture.repo.setActionCompleted(ada, id, 'primary', false, ['tenant:acme']))!.primaryAction).toEqual(primaryAction);
    expect(await fixture.repo.setActionCompleted(ada, id, 'secondary', true)).toBeNull();
    expect(await fixture.repo.setActionCompleted(ada, id, 'primary', true, ['tenant:other'])).toBeNull();
    expect(await fixture.repo.setActionCompleted(bob, id, 'primary', true)).toBeNull();
    expect(await fixture.repo.setActionCompleted(ada, 'not-an-id', 'primary', true)).toBeNull();
  });

  it('deletes the selected notifications of the owner and says how many', async () => {
    const fixture = await setup();
    const [env] = fixture.environments;
    const ada = await inboxOwner(fixture, env);
    const bob = await inboxOwner(fixture, env, 'bob');
    const one = (await fixture.deliver(ada, { createdAt: minute(1) })).id;
    const tagged = (await fixture.deliver(ada, { createdAt: minute(2), tags: ['old'] })).id;
    const kept = (await fixture.deliver(ada, { createdAt: minute(3) })).id;
    const bobs = (await fixture.deliver(bob, { createdAt: minute(4), tags: ['old'] })).id;
    expect(await fixture.repo.delete(ada, { ids: [one] })).toBe(1);
    expect(await fixture.repo.delete(ada, { ids: [one] })).toBe(0);
    expect(await fixture.repo.delete(ada, { tags: [['old']] })).toBe(1);
    expect(await fixture.repo.find(ada, tagged)).toBeNull();
    expect((await fixture.repo.list(ada, {}, { limit: 10, offset: 0 })).notifications.map((n) => n.id)).toEqual([kept]);
    expect(await fixture.repo.find(bob, bobs)).not.toBeNull();
  });
}
