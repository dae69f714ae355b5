import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';

/**
 * SDK clients kept per API key (at most `max` keys, the least recently used dropped): an SDK that keeps
 * the key on its client needs one client per integration, not one per send. Keys are held as hashes.
 */
export function clientPerKey<T extends object>(make: (apiKey: string) => T, max = 100): (apiKey: string) => T {
  const clients = new LRUCache<string, T>({ max });
  return (apiKey) => {
    const key = createHash('sha256').update(apiKey).digest('base64');
    let client = clients.get(key);
    if (!client) clients.set(key, (client = make(apiKey)));
    return client;
  };
}
