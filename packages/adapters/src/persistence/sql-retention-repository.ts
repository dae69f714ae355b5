import type { HistorySource, PurgeBatch, PurgeCounts, RecheckBatch, RetentionDayRecord, RetentionProgress, RetentionRepository } from '@herald/domain';
import type { Pool } from 'pg';
import { CLOSE_DAY, LIST_DAYS, LOCK_DAY, OLDEST, PROGRESS, PURGE_EVENTS, PURGE_NOTIFICATIONS, RECHECK_EVENTS, RECHECK_NOTIFICATIONS } from './retention-statements';
import { inTransaction } from './transaction';

const DAY_MS = 86_400_000;
const NIL = '00000000-0000-0000-0000-000000000000';

interface CountRow {
  notifications: string;
  jobs: string;
  execution_details: string;
  messages: string;
  digest_windows: string;
  events: string;
}

interface BatchRow extends CountRow {
  scanned: number;
  kept: number;
  last: string | null;
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
  };
}

function dayRecord(row: DayRow): RetentionDayRecord {
  return { environmentId: row.environment_id, day: asDay(row.day), state: row.state, counts: counts(row), kept: row.kept, startedAt: row.started_at, purgedAt: row.purged_at };
}

const batch = (row: BatchRow): RecheckBatch => ({ counts: counts(row), scanned: row.scanned, kept: row.kept, last: row.last });

const NOTHING: RecheckBatch = { counts: counts({ notifications: '0', jobs: '0', execution_details: '0', messages: '0', digest_windows: '0', events: '0' }), scanned: 0, kept: 0, last: null };

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
      const { rows: [record] } = await client.query<{ state: string; notifications_at: Date | null; notifications_id: string | null; events_at: Date | null; events_id: string | null }>(
        LOCK_DAY,
        [environmentId, dateText(day), now],
      );
      if (record.state === 'purged') return { counts: NOTHING.counts, scanned: 0, kept: 0 };
      const [after, afterId] = source === 'notifications' ? [record.notifications_at, record.notifications_id] : [record.events_at, record.events_id];
      const bounds = [day, new Date(day.getTime() + DAY_MS), after ?? '-infinity', afterId ?? NIL, limit];
      const statement = source === 'notifications' ? PURGE_NOTIFICATIONS : PURGE_EVENTS;
      const values = [environmentId, dateText(day), ...bounds, ...(source === 'notifications' ? [now] : [])];
      const { counts, scanned, kept } = batch((await client.query<BatchRow>(statement, values)).rows[0]);
      return { counts, scanned, kept };
    });
  }

  recheck(source: HistorySource, environmentId: string, day: Date, after: string | null, limit: number, now: Date): Promise<RecheckBatch> {
    return inTransaction(this.pool, async (client) => {
      const { rows: [record] } = await client.query<{ state: string }>(LOCK_DAY, [environmentId, dateText(day), now]);
      if (record.state === 'purged') return NOTHING;
      const values = [environmentId, dateText(day), after, limit, ...(source === 'notifications' ? [now] : [])];
      return batch((await client.query<BatchRow>(source === 'notifications' ? RECHECK_NOTIFICATIONS : RECHECK_EVENTS, values)).rows[0]);
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
