import type { InboxFeed, InboxFeedEvent } from '@herald/domain';
import pg from 'pg';

const CHANNEL = 'herald_inbox';
/** Told when a process starts holding Inbox sockets, so publishers that had stopped start again at once. */
const PRESENCE_CHANNEL = 'herald_inbox_presence';
/**
 * classid ('HRLI') of the shared advisory lock (objid 0) that a process holds on its listening
 * connection while it has Inbox sockets: PostgreSQL drops it with the connection, so a process that
 * dies or loses the database stops counting at once.
 */
export const INBOX_PRESENCE_LOCK = 0x48524c49;
const ANY_PRESENCE = `
  SELECT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2 AND l.objid = 0
      AND l.classid = ${INBOX_PRESENCE_LOCK}::oid
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())) AS present`;
/** While some process holds sockets, how often a publisher checks whether that is still so. */
const PRESENCE_RECHECK_MS = 10_000;
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

/** Whether some process holds Inbox sockets, as this one last learnt it. */
type Audience = 'unknown' | 'none' | 'some';

/**
 * The inbox feed over PostgreSQL LISTEN/NOTIFY: every process on the database hears every change,
 * with no broker beside PostgreSQL. Publishing is one statement at a time for all that waits;
 * listening holds one dedicated connection, re-opened after a loss.
 *
 * Nothing is published while no process holds an Inbox socket (the common case for a busy sender:
 * a NOTIFY per batch costs PostgreSQL a transaction and wakes every listening connection). A process
 * holding sockets keeps a shared advisory lock on its listening connection and announces itself when
 * it takes it; publishers read the locks when they start listening and, while someone is there,
 * every few seconds, so they stop again once the last holder leaves or dies.
 */
export class PgInboxFeed implements InboxFeed {
  private readonly listeners = new Set<(events: InboxFeedEvent[]) => void>();
  private client: pg.Client | undefined;
  private stopped = false;
  private retry: NodeJS.Timeout | undefined;
  private unsent: InboxFeedEvent[] = [];
  private sending = false;
  /** Whether this process holds sockets, and whether its listening connection holds the lock that says so. */
  private present = false;
  private presenceHeld = false;
  private presenceChanges: Promise<void> = Promise.resolve();
  private audience: Audience = 'unknown';
  private audienceCheckedAt = 0;
  /** Presence announcements heard: a lock reading that started before one is older than it. */
  private announcements = 0;
  private checking = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onError: (error: unknown) => void = () => undefined,
    private readonly recheckMs = PRESENCE_RECHECK_MS,
  ) {}

  heard(): boolean {
    return this.present || this.audience !== 'none';
  }

  publish(events: readonly InboxFeedEvent[]): void {
    if (!events.length) return;
    // Nobody would push them: a client that connects later reads them with its first fetch.
    if (!this.heard()) return;
    if (!this.present && this.audience === 'some' && Date.now() - this.audienceCheckedAt > this.recheckMs) void this.checkAudience();
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

  setPresent(present: boolean): Promise<void> {
    this.present = present;
    return this.syncPresence();
  }

  /** Takes or drops the presence lock on the listening connection, one change at a time; never rejects. */
  private syncPresence(): Promise<void> {
    this.presenceChanges = this.presenceChanges.then(async () => {
      const client = this.client;
      const wanted = this.present;
      if (!client || this.presenceHeld === wanted) return;
      try {
        // The lock is granted before the announcement commits: whoever hears it and reads the locks sees it.
        await client.query(
          wanted
            ? `SELECT pg_advisory_lock_shared(${INBOX_PRESENCE_LOCK}, 0), pg_notify('${PRESENCE_CHANNEL}', '')`
            : `SELECT pg_advisory_unlock_shared(${INBOX_PRESENCE_LOCK}, 0)`,
        );
        if (this.client === client) this.presenceHeld = wanted;
      } catch (error) {
        this.onError(error);
      }
    });
    return this.presenceChanges;
  }

  /** Reads whether any process holds the presence lock; kept only if nothing newer was heard meanwhile. */
  private async checkAudience(): Promise<void> {
    const listening = this.client;
    if (this.checking || !listening) return;
    this.checking = true;
    const heard = this.announcements;
    try {
      const { rows } = await this.pool.query<{ present: boolean }>(ANY_PRESENCE);
      if (this.announcements === heard && this.client === listening) {
        this.audience = rows[0].present ? 'some' : 'none';
        this.audienceCheckedAt = Date.now();
      }
    } catch (error) {
      this.onError(error);
    } finally {
      this.checking = false;
    }
  }

  /** Opens the listening connection; resolves once LISTEN is in place and whether anyone holds sockets is known. */
  async start(): Promise<void> {
    this.stopped = false;
    const client = new pg.Client({ connectionString: this.pool.options.connectionString });
    client.on('notification', (message) => {
      if (message.channel === PRESENCE_CHANNEL) {
        this.announcements++;
        this.audience = 'some';
        this.audienceCheckedAt = Date.now();
        return;
      }
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
      await client.query(`LISTEN ${CHANNEL}; LISTEN ${PRESENCE_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
    this.presenceHeld = false;
    await this.syncPresence();
    await this.checkAudience();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    this.presenceHeld = false;
    this.audience = 'unknown';
    await client?.end().catch(() => undefined);
  }

  /**
   * Changes published while the connection is down are not heard here (clients catch up on their
   * next fetch); meanwhile this process publishes everything, not knowing who listens.
   */
  private lose(client: pg.Client): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.presenceHeld = false;
    this.audience = 'unknown';
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
