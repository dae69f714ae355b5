import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';

/** The channel the outbox's trigger notifies when a transaction wrote deliveries (the migration outbound_webhooks). */
const CHANNEL = 'herald_webhooks';

/**
 * Runs the webhook dispatcher when there is work: at once when a transaction commits deliveries
 * (NOTIFY), and on a short poll for retries coming due and for leases a crashed process left. A
 * round that came back full is followed by another at once. Rounds never overlap in one process;
 * several processes may run them together (claims skip what another holds).
 */
export class PgWebhookWaker {
  private listener?: PoolClient;
  private poller?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  private stopped = true;

  constructor(
    private readonly pool: Pool,
    private readonly log?: Logger,
    private readonly pollMs = 1_000,
  ) {}

  /** `round` attempts what is due and says how many it attempted; `full` is its batch size. */
  async start(round: () => Promise<number>, full: number): Promise<void> {
    this.stopped = false;
    const kick = () => this.kick(round, full);
    const client = await this.pool.connect();
    client.on('notification', kick);
    client.on('error', (err) => this.log?.warn({ err }, 'webhook listener failed; the poll still delivers'));
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    this.poller = setInterval(kick, this.pollMs).unref();
    kick();
  }

  private kick(round: () => Promise<number>, full: number): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        try {
          while (!this.stopped && (await round()) >= full);
        } catch (err) {
          this.log?.error({ err }, 'webhook dispatch failed; the next poll tries again');
        }
      } while (this.again && !this.stopped);
    })().finally(() => (this.running = undefined));
  }

  /** Takes no more rounds; resolves once the round in hand has recorded its attempts. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    await this.running;
    if (this.listener) {
      await this.listener.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
      this.listener.release();
      this.listener = undefined;
    }
  }
}
