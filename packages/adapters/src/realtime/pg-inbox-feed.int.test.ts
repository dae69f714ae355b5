import type { InboxFeedEvent } from '@herald/domain';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { INBOX_PRESENCE_LOCK, PgInboxFeed } from './pg-inbox-feed';

const database = useTestDatabase();
const started: Array<{ stop(): Promise<unknown> }> = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

/** A feed of its own, as another process on the same database would have. */
async function feed(recheckMs?: number): Promise<{ feed: PgInboxFeed; heard: string[] }> {
  const f = new PgInboxFeed(database.db.pool, (error) => void error, recheckMs);
  const heard: string[] = [];
  f.subscribe((events) => heard.push(...events.map((e) => e.subscriberRef)));
  await f.start();
  started.push(f);
  return { feed: f, heard };
}

/** Granted presence locks in this test's database. */
const PRESENCE_LOCKS_HERE = `locktype = 'advisory' AND classid = ${INBOX_PRESENCE_LOCK}::oid AND granted
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

const event = (subscriberRef: string): InboxFeedEvent[] => [{ environmentId: 'env', subscriberRef, jobIds: [] }];

/** Publishes `name` every 20 ms until `heard` has it (the announcement reaches the publisher asynchronously). */
async function publishUntilHeard(publisher: PgInboxFeed, heard: string[], name: string): Promise<void> {
  for (let i = 0; i < 250 && !heard.includes(name); i++) {
    publisher.publish(event(name));
    await new Promise((r) => setTimeout(r, 20));
  }
  expect(heard).toContain(name);
}

/** Every NOTIFY on the feed's channel, whoever sends it. */
async function rawListener(): Promise<string[]> {
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  const payloads: string[] = [];
  client.on('notification', (m) => m.channel === 'herald_inbox' && payloads.push(m.payload ?? ''));
  await client.query('LISTEN herald_inbox');
  started.push({ stop: () => client.end() });
  return payloads;
}

/**
 * Publishes for a while, which starts the publisher's presence checks (every 50 ms in these tests),
 * then expects `name` published afterwards to send no NOTIFY at all.
 */
async function expectSilenceAfterChecks(publisher: PgInboxFeed, sent: string[], name: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    publisher.publish(event('settling'));
    await new Promise((r) => setTimeout(r, 30));
  }
  const before = sent.length;
  publisher.publish(event(name));
  await new Promise((r) => setTimeout(r, 200));
  expect(sent.length).toBe(before);
}

describe('PgInboxFeed presence', () => {
  it('sends no NOTIFY while no process holds Inbox sockets, and publishes once one announces itself', async () => {
    const sent = await rawListener();
    const publisher = await feed();
    const holder = await feed();
    expect(publisher.feed.heard()).toBe(false);
    publisher.feed.publish(event('nobody-listens'));
    holder.feed.publish(event('nobody-listens-either'));

    await holder.feed.setPresent(true);
    await publishUntilHeard(publisher.feed, holder.heard, 'someone-listens');
    expect(publisher.feed.heard()).toBe(true);
    // Publishing is one statement after another: had the first events been sent, they would have come first.
    expect(holder.heard.filter((r) => r.startsWith('nobody'))).toEqual([]);
    expect(sent.join()).not.toContain('nobody');
    // The holder's own events go out for its own sockets.
    holder.feed.publish(event('from-the-holder'));
    await publishUntilHeard(publisher.feed, holder.heard, 'from-the-holder');
  });

  it('stops publishing once the last holder leaves or its connection ends', async () => {
    const sent = await rawListener();
    const publisher = await feed(50);
    const holder = await feed();
    await holder.feed.setPresent(true);
    await publishUntilHeard(publisher.feed, holder.heard, 'held');

    await holder.feed.setPresent(false);
    await expectSilenceAfterChecks(publisher.feed, sent, 'after-leaving');
    expect(publisher.feed.heard()).toBe(false);

    // A holder whose connection ends (a process killed) stops counting with it.
    const dying = await feed();
    await dying.feed.setPresent(true);
    await publishUntilHeard(publisher.feed, dying.heard, 'dying-holds');
    await dying.feed.stop();
    await expectSilenceAfterChecks(publisher.feed, sent, 'after-death');
    expect(sent.join()).not.toMatch(/after-leaving|after-death/);
  });

  it('announces itself again after its listening connection was lost and re-opened', async () => {
    const publisher = await feed(50);
    const holder = await feed();
    await holder.feed.setPresent(true);
    await publishUntilHeard(publisher.feed, holder.heard, 'first');
    const { pool } = database.db;
    // pg_locks lists the whole cluster's locks, and other test files hold presence locks in their own
    // databases at the same time: only this database's count. With a timeout, pg_terminate_backend
    // returns once the backend has exited and its lock is gone.
    await pool.query(`SELECT pg_terminate_backend(pid, 10000) FROM pg_locks WHERE ${PRESENCE_LOCKS_HERE}`);
    // The holder re-opens within a second and takes its lock again.
    await publishUntilHeard(publisher.feed, holder.heard, 'after-reconnect');
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM pg_locks WHERE ${PRESENCE_LOCKS_HERE}`);
    expect(rows[0].n).toBe(1);
  });

  it('publishes everything while it does not know who listens (before it starts listening)', async () => {
    const holder = await feed();
    const notStarted = new PgInboxFeed(database.db.pool);
    notStarted.publish(event('unknown-audience'));
    await publishUntilHeard(notStarted, holder.heard, 'unknown-audience');
  });
});
