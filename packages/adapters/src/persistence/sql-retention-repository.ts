import { NO_PURGE_COUNTS, type HistorySource, PurgeBatch, PurgeCounts, RecheckBatch, RetentionDayRecord, RetentionProgress, RetentionRepository } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import type { COUNT_COLUMNS } from './retention-sources';
import { CLOSE_DAY, LATE_DETAILS, LIST_DAYS, LOCK_DAY, OLDEST, PROGRESS, SOURCE_STATEMENTS } from './retention-statements';
import { inTransaction } from './transaction';

const DAY_MS = 86_400_000;
const NIL = '00000000-0000-0000-0000-000000000000';

type CountRow = Record<(typeof COUNT_COLUMNS)[number], string>;

interface BatchRow extends CountRow {
  scanned: number;
  kept: number;
  last: string | null;
  /** The notifications pass's removed jobs (see LATE_DETAILS). */
  removed_job_ids?: string[];
}

interface DayRow extends CountRow {
  environment_id: string;
  day: string;
  state: 'purging' | 'purged';
  kept: number;
  started_at: Date;
  purged_at: Date | null;
}

const asDay = (text: string) => new Date(`${text}T00:00:00.000Z`);
const dateText = (day: Date) => day.toISOString().slice(0, 10);

function counts(row: CountRow): PurgeCounts {
  return {
    notifications: Number(row.notifications),
    jobs: Number(row.jobs),
    executionDetails: Number(row.execution_details),
    messages: Number(row.messages),
    digestWindows: Number(row.digest_windows),
    events: Number(row.events),
    webhookEvents: Number(row.webhook_events),
    webhookDeliveries: Number(row.webhook_deliveries),
    webhookAttempts: Number(row.webhook_attempts),
  };
}

function dayRecord(row: DayRow): RetentionDayRecord {
  return { environmentId: row.environment_id, day: asDay(row.day), state: row.state, counts: counts(row), kept: row.kept, startedAt: row.started_at, purgedAt: row.purged_at };
}

const batch = (row: BatchRow): RecheckBatch => ({ counts: counts(row), scanned: row.scanned, kept: row.kept, last: row.last });

/** Runs the batch's statement, then removes what receipts wrote for its jobs meanwhile (LATE_DETAILS). */
async function runBatch(client: PoolClient, statement: string, values: unknown[], environmentId: string, day: string): Promise<RecheckBatch> {
  const [row] = (await client.query<BatchRow>(statement, values)).rows;
  const result = batch(row);
  if (row.removed_job_ids?.length) {
    const [{ n }] = (await client.query<{ n: number }>(LATE_DETAILS, [environmentId, day, row.removed_job_ids])).rows;
    result.counts = { ...result.counts, executionDetails: result.counts.executionDetails + n };
  }
  return result;
}

const NOTHING: RecheckBatch = { counts: NO_PURGE_COUNTS, scanned: 0, kept: 0, last: null };

/**
 * Retention in PostgreSQL: the purge walks each environment's notifications and events by
 * (created_at, id) on their (environment_id, created_at) indexes, a day at a time, and deletes in
 * batches of short transactions (measured against partitioning in docs/retention.md). The day's
 * record in `retention_days` holds its counts and where each pass stopped; `retention_kept` the rows
 * it had to keep. A day done is refused here too, so nothing in it is ever removed or counted again.
 */
export class SqlRetentionRepository implements RetentionRepository {
  constructor(private readonly pool: Pool) {}

  async progress(environmentId: string): Promise<RetentionProgress> {
    const { rows } = await this.pool.query<{ day: string; state: string }>(PROGRESS, [environmentId]);
    const latest = rows.find((r) => r.state === 'latest');
    return { open: rows.filter((r) => r.state === 'purging').map((r) => asDay(r.day)), latest: latest ? asDay(latest.day) : null };
  }

  async oldestDay(environmentId: string, from: Date | null, before: Date): Promise<Date | null> {
    const { rows } = await this.pool.query<{ at: Date | null }>(OLDEST, [environmentId, from ?? '-infinity', before]);
    const at = rows[0]?.at;
    return at ? new Date(Math.floor(at.getTime() / DAY_MS) * DAY_MS) : null;
  }

  purge(source: HistorySource, environmentId: string, day: Date, limit: number, now: Date): Promise<PurgeBatch> {
    return inTransaction(this.pool, async (client) => {
      const { rows: [record] } = await client.query<Record<string, unknown> & { state: string }>(LOCK_DAY, [environmentId, dateText(day), now]);
      if (record.state === 'purged') return { counts: NO_PURGE_COUNTS, scanned: 0, kept: 0 };
      const after = record[`${source}_at`] ?? '-infinity';
      const afterId = record[`${source}_id`] ?? NIL;
      const statement = SOURCE_STATEMENTS[source];
      const values = [environmentId, dateText(day), day, new Date(day.getTime() + DAY_MS), after, afterId, limit, ...(statement.readsNow ? [now] : [])];
      const { counts, scanned, kept } = await runBatch(client, statement.purge, values, environmentId, dateText(day));
      return { counts, scanned, kept };
    });
  }

  recheck(source: HistorySource, environmentId: string, day: Date, after: string | null, limit: number, now: Date): Promise<RecheckBatch> {
    return inTransaction(this.pool, async (client) => {
      const { rows: [record] } = await client.query<{ state: string }>(LOCK_DAY, [environmentId, dateText(day), now]);
      if (record.state === 'purged') return NOTHING;
      const statement = SOURCE_STATEMENTS[source];
      return runBatch(client, statement.recheck, [environmentId, dateText(day), after, limit, ...(statement.readsNow ? [now] : [])], environmentId, dateText(day));
    });
  }

  async closeDay(environmentId: string, day: Date, now: Date): Promise<RetentionDayRecord> {
    const { rows } = await this.pool.query<DayRow>(CLOSE_DAY, [environmentId, dateText(day), now]);
    return dayRecord(rows[0]);
  }

  async days(environmentId: string, limit: number): Promise<RetentionDayRecord[]> {
    const { rows } = await this.pool.query<DayRow>(LIST_DAYS, [environmentId, limit]);
    return rows.map(dayRecord);
  }
}
