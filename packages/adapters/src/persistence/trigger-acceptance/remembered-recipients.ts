import { LRUCache } from 'lru-cache';
import type { preferenceLevels } from '../delivery-rows';

/**
 * Recipients remembered, at most; the least recently read is forgotten first. A row is typically
 * well under a kilobyte of JSON. The remembered rows' JSON (with the object a read was made with, if
 * any) is bounded in all too (REMEMBERED_CHARS), and a recipient whose read alone is larger
 * (REMEMBERED_CHARS_EACH) is not remembered.
 */
const REMEMBERED_RECIPIENTS = 10_000;
const REMEMBERED_CHARS = 8_000_000;
const REMEMBERED_CHARS_EACH = 16_000;
/** How long a remembered read is used before the recipient is read again. */
const REMEMBER_MS = 60_000;

/**
 * A recipient as the inline step read it (`INLINE_RECIPIENTS`) for one workflow: its row (as JSON),
 * the row's version, and its preferences for the workflow. Remembered, so that later batches
 * triggering the workflow for it run the step without reading it again, which saves a round trip
 * per batch; the accept statement still compares what the run saw with what is stored (`RunCheck`).
 */
export interface RecipientRead {
  subscriber: Record<string, unknown>;
  preferences: Parameters<typeof preferenceLevels>[0];
  version: string;
}

/** Where a recipient read as stored is remembered: its environment, the workflow and its subscriberId, apart by NUL, which no subscriberId holds (see jsonParam). */
export const storedKey = (environmentId: string, workflowId: string, subscriberId: string) => `${environmentId}\0${workflowId}\0${subscriberId}`;

/** Where a read of the recipient with the batch's one object for it is remembered. */
export const withObjectKey = (key: string, object: { json: string }) => `${key}\0${object.json}`;

/** The recipients' reads the inline step runs on, by `storedKey` or `withObjectKey`, bounded in number, size and age. */
export class RememberedRecipients {
  private readonly reads = new LRUCache<string, RecipientRead>({
    max: REMEMBERED_RECIPIENTS,
    ttl: REMEMBER_MS,
    maxSize: REMEMBERED_CHARS,
    maxEntrySize: REMEMBERED_CHARS_EACH,
    // A key names the object it was read with (`withObjectKey`): counted too.
    sizeCalculation: (read, key) => JSON.stringify(read).length + key.length,
  });

  get(key: string): RecipientRead | undefined {
    return this.reads.get(key);
  }

  /** Remembers the read, unless it is too large. */
  set(key: string, read: RecipientRead): void {
    this.reads.set(key, read);
  }

  forget(key: string): void {
    this.reads.delete(key);
  }
}
