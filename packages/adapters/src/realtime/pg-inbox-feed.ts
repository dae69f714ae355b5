import type { InboxFeed, InboxFeedEvent } from '@herald/domain';
import pg from 'pg';

const CHANNEL = 'herald_inbox';
/** NOTIFY payloads must stay under 8000 bytes. */
const PAYLOAD_MAX = 7_000;
const RECONNECT_MS = 1_000;
/** Job ids per packed item: an event with more is split, so no item alone outgrows a payload. */
const JOB_IDS_PER_ITEM = 150;
/** Events one publishing statement carries at most (about 75 payloads). */
const EVENTS_PER_STATEMENT = 5_000;
/** Events waiting to be published at most; beyond, the oldest are dropped (clients catch up on their next fetch). */
const UNSENT_MAX = 100_000;

type Wire = [environmentId: string, subscriberRef: string, jobIds: string[]];

/**
 * Packs events into as few payloads as fit, each a JSON array of [environment, subscriber, jobs].
 * An event with many job ids becomes several items for the same subscriber.
 */
export function packInboxEvents(events: readonly InboxFeedEvent[]): string[] {
  const payloads: string[] = [];
  let current: string[] = [];
  let size = 2;
  const items = events.flatMap((e) => {
    const parts: Wire[] = [];
    for (let i = 0; i === 0 || i < e.jobIds.length; i += JOB_IDS_PER_ITEM) parts.push([e.environmentId, e.subscriberRef, e.jobIds.slice(i, i + JOB_IDS_PER_ITEM)]);
    return parts;
  });
  for (const wire of items) {
    const item = JSON.stringify(wire);
    if (current.length && size + item.length + 1 > PAYLOAD_MAX) {
      payloads.push(`[${current.join(',')}]`);
      current = [];
      size = 2;
    }
    current.push(item);
    size += item.length + 1;
  }
  if (current.length) payloads.push(`[${current.join(',')}]`);
  return payloads;
}

function unpack(payload: string): InboxFeedEvent[] {
  return (JSON.parse(payload) as Wire[]).map(([environmentId, subscriberRef, jobIds]) => ({ environmentId, subscriberRef, jobIds }));
}

/**
 * The inbox feed over PostgreSQL LISTEN/NOTIFY: every process on the database hears every change,
 * with no broker beside PostgreSQL. Publishing is one statement at a time for all that waits;
 * listening holds one dedicated connection, re-opened after a loss.
 */
export class PgInboxFeed implements InboxFeed {
  private readonly listeners = new Set<(events: InboxFeedEvent[]) => void>();
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private unsent: InboxFeedEvent[] = [];
  private sending = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  publish(events: readonly InboxFeedEvent[]): void {
    if (!events.length) return;
    for (const e of events) this.unsent.push(e);
    if (this.unsent.length > UNSENT_MAX) this.unsent.splice(0, this.unsent.length - UNSENT_MAX);
    if (!this.sending) this.send();
  }

  /**
   * One publishing statement at a time: what is published meanwhile (every trigger of a busy
   * service publishes its own messages) goes together in the next, as few NOTIFYs as fit.
   */
  private send(): void {
    const payloads = packInboxEvents(this.unsent.splice(0, EVENTS_PER_STATEMENT));
    this.sending = true;
    this.pool
      .query('SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p', [CHANNEL, payloads])
      .catch(this.onError)
      .finally(() => {
        this.sending = false;
        if (this.unsent.length) this.send();
      });
  }

  subscribe(listener: (events: InboxFeedEvent[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Opens the listening connection; resolves once LISTEN is in place. */
  async start(): Promise<void> {
    this.stopped = false;
    const client = new pg.Client({ connectionString: this.pool.options.connectionString });
    client.on('notification', (message) => {
      if (message.channel !== CHANNEL || !message.payload) return;
      let events: InboxFeedEvent[];
      try {
        events = unpack(message.payload);
      } catch (error) {
        return this.onError(error);
      }
      for (const listener of this.listeners) listener(events);
    });
    client.on('error', (error) => {
      this.onError(error);
      this.lose(client);
    });
    client.on('end', () => this.lose(client));
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** Changes published while the connection is down are not heard here (clients catch up on their next fetch). */
  private lose(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    client.end().catch(() => undefined);
    this.restartLater();
  }

  private restartLater(): void {
    if (this.stopped || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.start().catch((error) => {
        this.onError(error);
        this.restartLater();
      });
    }, RECONNECT_MS).unref();
  }
}
