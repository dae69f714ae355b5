import type { LoginThrottle, ThrottleDecision, ThrottleKey } from '@herald/domain';
import type { Pool } from 'pg';

/**
 * Sign-in attempts counted in PostgreSQL, so every process shares one count. One statement counts
 * the attempt against all its keys (a window that has ended starts again at this attempt) and
 * returns the counts: concurrent attempts each see their own increment.
 */
export class SqlLoginThrottle implements LoginThrottle {
  constructor(private readonly pool: Pool) {}

  async attempt(keys: ThrottleKey[], windowMs: number, now: Date): Promise<ThrottleDecision> {
    const { rows } = await this.pool.query<{ key: string; count: number; window_start: Date }>(
      `INSERT INTO dashboard_login_attempts AS a (key, window_start, count)
       SELECT k, $2::timestamptz, 1 FROM unnest($1::text[]) AS k ORDER BY k
       ON CONFLICT (key) DO UPDATE SET
         count = CASE WHEN a.window_start + $3::int * interval '1 millisecond' <= $2 THEN 1 ELSE a.count + 1 END,
         window_start = CASE WHEN a.window_start + $3::int * interval '1 millisecond' <= $2 THEN $2 ELSE a.window_start END
       RETURNING key, count, window_start`,
      [keys.map((k) => k.key), now, windowMs],
    );
    let retryAfterMs = 0;
    for (const row of rows) {
      const limit = keys.find((k) => k.key === row.key)!.limit;
      if (row.count > limit) retryAfterMs = Math.max(retryAfterMs, row.window_start.getTime() + windowMs - now.getTime());
    }
    return retryAfterMs > 0 ? { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)) } : { allowed: true };
  }

  async forgive(accountKey: string, addressKey?: string): Promise<void> {
    await this.pool.query(
      `WITH cleared AS (DELETE FROM dashboard_login_attempts WHERE key = $1)
       UPDATE dashboard_login_attempts SET count = greatest(count - 1, 0) WHERE key = $2`,
      [accountKey, addressKey ?? null],
    );
  }

  async purge(before: Date): Promise<number> {
    const { rowCount } = await this.pool.query('DELETE FROM dashboard_login_attempts WHERE window_start < $1', [before]);
    return rowCount ?? 0;
  }
}
