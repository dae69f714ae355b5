import { InMemoryInboxFeed, InMemoryInboxHub } from './in-memory-inbox-feed';
import { inboxFeedContract } from './inbox-feed-contract';

inboxFeedContract('in memory', async (count) => {
  const hub = new InMemoryInboxHub();
  return Array.from({ length: count }, () => new InMemoryInboxFeed(hub));
});
