import { inboxFeedContract } from '@herald/domain/testing/inbox-feed-contract';
import { afterEach } from 'vitest';
import { useTestDatabase } from '../testing/use-test-database';
import { PgInboxFeed } from './pg-inbox-feed';

const database = useTestDatabase();
const started: PgInboxFeed[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((feed) => feed.stop()));
});

// A test's presence must not outlive it: each test's processes leave before the next starts.
inboxFeedContract('PostgreSQL', async (count) => {
  const feeds = Array.from({ length: count }, () => new PgInboxFeed(database.db.pool, () => undefined, 50));
  for (const feed of feeds) {
    await feed.start();
    started.push(feed);
  }
  return feeds;
});
