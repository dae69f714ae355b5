import type { SubscriberSearch } from '@herald/domain';
import type { Pool } from 'pg';
import { SqlParams } from './sql-params';

/** A search term for LIKE, its wildcards taken literally (`%` in an email is a percent sign). */
export function likeLiteral(term: string): string {
  return term.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * How many of the environment's subscribers match the search, counted up to `cap`. In SQL rather
 * than Prisma's `count({ take })`, which sorts the matches by id before counting them: at 1,000,000
 * subscribers that sort was 0.8 s of every unfiltered list (this, an index-only scan of at most `cap`
 * entries, about 16 ms on the same machine). The conditions are the ones the page's query uses.
 */
export async function countSubscriberMatches(pool: Pool, environmentId: string, filter: SubscriberSearch, cap: number): Promise<number> {
  const params = new SqlParams();
  const { p } = params;
  const where = [`environment_id = ${p(environmentId)}`];
  if (filter.email) where.push(`email LIKE ${p(likeLiteral(filter.email))} || '%'`);
  if (filter.phone) where.push(`phone LIKE ${p(likeLiteral(filter.phone))} || '%'`);
  if (filter.subscriberId) where.push(`subscriber_id LIKE ${p(likeLiteral(filter.subscriberId))} || '%'`);
  if (filter.name) {
    const [first, ...rest] = filter.name.trim().split(/\s+/);
    const name = p(likeLiteral(filter.name));
    const either = [`first_name LIKE '%' || ${name} || '%'`, `last_name LIKE '%' || ${name} || '%'`];
    if (rest.length) either.push(`(first_name = ${p(first)} AND last_name LIKE ${p(likeLiteral(rest.join(' ')))} || '%')`);
    where.push(`(${either.join(' OR ')})`);
  }
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS n FROM (SELECT 1 FROM subscribers WHERE ${where.join(' AND ')} LIMIT ${p(cap)}) s`, params.values);
  return rows[0].n;
}
