import type { DeliveryObserver, JobOutcome } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import type { Logger } from 'pino';

const CHANNEL = 'herald_due';
/** Due notifications started per wake-up; more are due at once means another wake-up right after. */
const BATCH = 2_000;
/** A timer never waits longer than this: the periodic query re-arms it anyway. */
const MAX_WAIT_MS = 60_000;
/** How long before a due time the timer looks the work up, so the run itself starts on time. */
const LEAD_MS = 30;

/**
 * Starts delayed work on time. pg-boss polls scheduled messages every few seconds at best, so each
 * process keeps one timer for the earliest due job it knows of, learned from the outcomes it
 * records (DeliveryObserver), from other processes (NOTIFY herald_due <epoch ms> when one schedules
 * work earlier than it last announced) and from a cheap periodic query of the earliest delayed job.
 * When the timer fires it runs the due notifications directly. Several processes racing for the
 * same jobs is safe: claims skip locked jobs and record each job once. The pg-boss messages stay as
 * they were, so a process without this timer (or one that died) still gets the work done.
 */
export class PgDueWorkWaker implements DeliveryObserver {
  private run?: (notificationIds: string[]) => Promise<void>;
  private listener?: PoolClient;
  private refresher?: NodeJS.Timeout;
  private timer?: NodeJS.Timeout;
  private nextAt = Infinity;
  private announced = -Infinity;
  private readonly inFlight = new Set<string>();
  private stopped = false;

  constructor(
    private readonly pool: Pool,
    private readonly log?: Logger,
    private readonly refreshMs = 5_000,
  ) {}

  async start(run: (notificationIds: string[]) => Promise<void>): Promise<void> {
    this.run = run;
    this.stopped = false;
    const client = await this.pool.connect();
    client.on('notification', (message) => {
      const at = Number(message.payload);
      if (Number.isFinite(at)) this.wakeBefore(at);
    });
    client.on('error', (err) => this.log?.warn({ err }, 'due-work listener failed; the periodic query still wakes delayed work'));
    await client.query(`LISTEN ${CHANNEL}`);
    this.listener = client;
    await this.refresh(true);
    this.refresher = setInterval(() => void this.refresh(true), this.refreshMs).unref();
  }

  recorded(outcomes: readonly JobOutcome[]): void {
    let earliest = Infinity;
    for (const o of outcomes) {
      const at = (o.status === 'delayed' ? o.rerunAt : o.nextRunAt)?.getTime();
      if (at !== undefined && at < earliest) earliest = at;
    }
    if (earliest === Infinity || !this.run) return;
    this.wakeBefore(earliest);
    // Others already wake at `announced` (and then query what is next): tell them only of earlier work.
    if (earliest < this.announced || this.announced <= Date.now()) {
      this.announced = earliest;
      this.pool.query('SELECT pg_notify($1, $2)', [CHANNEL, String(earliest)]).catch(() => undefined);
    }
  }

  /** Wakes LEAD_MS before `at` (the due time of some work). */
  private wakeBefore(at: number): void {
    this.wakeAt(at - LEAD_MS);
  }

  private wakeAt(at: number): void {
    if (this.stopped || at >= this.nextAt) return;
    clearTimeout(this.timer);
    this.nextAt = at;
    this.arm(at);
  }

  private arm(at: number): void {
    this.timer = setTimeout(() => {
      // A timer may fire up to a millisecond before Date.now() reaches its time (and a long wait is
      // cut at MAX_WAIT_MS): wait out the rest, or the look-up would run before the work is due.
      if (Date.now() < at) return this.arm(at);
      void this.fire();
    }, Math.min(MAX_WAIT_MS, Math.max(0, at - Date.now())));
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    this.timer = undefined;
    this.nextAt = Infinity;
    if (this.stopped || !this.run) return;
    // Woken LEAD_MS early: the look-up is done before the due time, the run starts at it.
    let rows: Array<{ notification_id: string; at: string }>;
    try {
      ({ rows } = await this.pool.query<{ notification_id: string; at: string }>(
        `SELECT notification_id, (extract(epoch FROM run_at) * 1000)::bigint AS at FROM jobs
         WHERE status = 'delayed' AND run_at <= now() + interval '${LEAD_MS} milliseconds' ORDER BY run_at LIMIT ${BATCH}`,
      ));
    } catch (err) {
      this.log?.warn({ err }, 'could not read due delayed work; retrying shortly');
      this.wakeAt(Date.now() + 1_000);
      return;
    }
    const byTime = new Map<number, string[]>();
    for (const r of rows) {
      if (this.inFlight.has(r.notification_id)) continue;
      this.inFlight.add(r.notification_id);
      const at = Number(r.at);
      byTime.set(at, [...(byTime.get(at) ?? []), r.notification_id]);
    }
    for (const [at, ids] of byTime) {
      const start = () => {
        // Likewise here: started early, the claim (run_at <= now()) would find nothing due, and only
        // a later poll would start the work.
        const early = at - Date.now();
        if (early > 0) return void setTimeout(start, early).unref();
        this.run!(ids)
          .catch((err) => this.log?.error({ err }, 'running due delayed work failed; the queue retries it'))
          .finally(() => ids.forEach((id) => this.inFlight.delete(id)));
      };
      const wait = at - Date.now();
      if (wait > 0) setTimeout(start, wait).unref();
      else start();
    }
    if (rows.length === BATCH) this.wakeAt(Date.now() + 5);
    await this.refresh();
  }

  /**
   * Arms the timer for the earliest delayed job still to come; the periodic call (`overdue`) also
   * for one already due that no timer started (made due by another process, or by an operator).
   */
  private async refresh(overdue = false): Promise<void> {
    if (this.stopped) return;
    try {
      const { rows } = await this.pool.query<{ at: string | null }>(
        `SELECT (extract(epoch FROM min(run_at)) * 1000)::bigint AS at FROM jobs
         WHERE status = 'delayed' ${overdue ? '' : `AND run_at > now() + interval '${LEAD_MS} milliseconds'`}`,
      );
      if (rows[0]?.at) this.wakeBefore(Number(rows[0].at));
    } catch (err) {
      this.log?.debug({ err }, 'could not read the next due delayed job');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.refresher);
    if (this.listener) {
      await this.listener.query(`UNLISTEN ${CHANNEL}`).catch(() => undefined);
      this.listener.release();
      this.listener = undefined;
    }
  }
}
