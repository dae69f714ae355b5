import { hostname } from 'node:os';
import pg from 'pg';

/** classid ('HRLD') of the two-key advisory locks that say a worker process is alive; objid is its lock_key. */
export const WORKER_LOCK_CLASS = 0x48524c44;

/**
 * A registered worker process (`w`) whose advisory lock nobody holds: it is gone. PostgreSQL
 * releases a session's locks the moment its connection ends, and a killed process's connection
 * ends with it.
 */
const GONE = `NOT EXISTS (
    SELECT 1 FROM pg_locks l
    WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
      AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND l.classid = ${WORKER_LOCK_CLASS}::oid AND l.objid = w.lock_key::oid)`;

/** The registered worker processes other than $1 that are gone. */
export const DEAD_WORKERS = `SELECT w.id FROM worker_processes w WHERE w.id <> $1::uuid AND ${GONE}`;

/** The registered worker processes other than $1, and whether each is gone. */
export const OTHER_WORKERS = `SELECT w.id, ${GONE} AS gone FROM worker_processes w WHERE w.id <> $1::uuid`;

// A host that disappears without closing its sockets (power loss, a partition) is noticed by the
// server's TCP keepalives on this one session within about 8 s, instead of the system's two hours.
const KEEPALIVES = 'SET tcp_keepalives_idle = 5; SET tcp_keepalives_interval = 1; SET tcp_keepalives_count = 3';

/**
 * The liveness of this process as PostgreSQL sees it: a connection of its own that registers the
 * process and holds its advisory lock for as long as the process lives. If the connection drops
 * while the process lives (a database restart), it registers again under the same id.
 */
export class ProcessLiveness {
  private client: pg.Client | undefined;
  private released = false;
  private retry: NodeJS.Timeout | undefined;

  constructor(
    private readonly config: pg.ClientConfig,
    readonly workerId: string,
    private readonly onLost: (error: Error) => void = () => undefined,
  ) {}

  async hold(): Promise<void> {
    const client = new pg.Client({ ...this.config, keepAlive: true, application_name: 'herald-liveness' });
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client, new Error('liveness connection ended')));
    await client.connect();
    try {
      await client.query(KEEPALIVES);
      // Registered and locked in one transaction: the row is never visible without its lock held.
      await client.query('BEGIN');
      const { rows } = await client.query<{ lock_key: number }>(
        `INSERT INTO worker_processes (id, hostname, pid) VALUES ($1, $2, $3)
         ON CONFLICT (id) DO UPDATE SET pid = EXCLUDED.pid RETURNING lock_key`,
        [this.workerId, hostname(), process.pid],
      );
      await client.query('SELECT pg_advisory_lock($1::int, $2::int)', [WORKER_LOCK_CLASS, rows[0].lock_key]);
      await client.query('COMMIT');
    } catch (error) {
      this.client = undefined;
      await client.end().catch(() => undefined);
      throw error;
    }
    this.client = client;
  }

  /** Deregisters and closes the connection (the lock goes with it). */
  async release(): Promise<void> {
    this.released = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    if (!client) return;
    await client.query('DELETE FROM worker_processes WHERE id = $1', [this.workerId]).catch(() => undefined);
    await client.end().catch(() => undefined);
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.released || this.client !== client) return;
    this.client = undefined;
    this.onLost(error);
    void client.end().catch(() => undefined);
    this.reacquire();
  }

  private reacquire(): void {
    this.retry = setTimeout(() => {
      if (this.released) return;
      this.hold().catch((error: Error) => {
        this.onLost(error);
        this.reacquire();
      });
    }, 1_000);
    this.retry.unref();
  }
}
