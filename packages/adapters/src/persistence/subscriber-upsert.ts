import type { SubscriberInput, UpsertManyResult } from '@herald/domain';
import type { Pool, PoolClient } from 'pg';
import { jsonParam, prepared } from './sql-params';
import { NEW_SUBSCRIBER_COLUMNS, newSubscriberValues, SUBSCRIBER_CHANGES, subscriberUpdateSet } from './subscriber-sql';

// Creates or updates a whole batch in one statement; of several items for one subscriber only the
// last applies. The UPDATE sees only rows that existed before the statement. An item that would
// leave a subscriber's attributes as they are writes nothing (outcome 'unchanged'): its version and
// update time stay, no new row version is made, and no lock is taken: triggers naming their
// recipient by the same object each time, as integrations do, neither rewrite that row nor queue
// behind each other's lock on it.
const UPSERT_MANY_SUBSCRIBERS = `
WITH input AS (
  SELECT DISTINCT ON (e->>'subscriberId') e, e->>'subscriberId' AS sid
  FROM jsonb_array_elements($2::jsonb) WITH ORDINALITY AS t(e, n)
  ORDER BY e->>'subscriberId', n DESC
), updated AS (
  UPDATE subscribers s SET
    ${subscriberUpdateSet({ channels: true })}
  FROM input i
  WHERE s.environment_id = $1 AND s.subscriber_id = i.sid AND ${SUBSCRIBER_CHANGES}
  RETURNING s.subscriber_id
), unchanged AS (
  SELECT s.subscriber_id FROM input i JOIN subscribers s ON s.environment_id = $1 AND s.subscriber_id = i.sid
  WHERE NOT ${SUBSCRIBER_CHANGES}
), inserted AS (
  INSERT INTO subscribers (id, environment_id, subscriber_id, ${NEW_SUBSCRIBER_COLUMNS}, updated_at)
  SELECT gen_random_uuid(), $1, i.sid, ${newSubscriberValues('i.e')}, now()
  FROM input i
  WHERE NOT EXISTS (SELECT 1 FROM subscribers s WHERE s.environment_id = $1 AND s.subscriber_id = i.sid)
  ON CONFLICT (environment_id, subscriber_id) DO NOTHING
  RETURNING subscriber_id
)
SELECT 'updated' AS outcome, subscriber_id FROM updated
UNION ALL
SELECT 'unchanged' AS outcome, subscriber_id FROM unchanged
UNION ALL
SELECT 'created' AS outcome, subscriber_id FROM inserted`;
const upsertManyStatement = prepared('herald-upsert-subscribers', UPSERT_MANY_SUBSCRIBERS);

/**
 * Creates or updates subscribers set-based, on a pool or inside a caller's transaction. A row
 * inserted concurrently by another request is neither updated nor inserted by the statement
 * (ON CONFLICT DO NOTHING), nor is one that another request changed to the item's very values while
 * the UPDATE waited for it (its check then finds nothing to change); running those items again
 * updates them or reports them unchanged.
 */
export async function upsertSubscribers(db: Queryable, environmentId: string, inputs: SubscriberInput[]): Promise<UpsertManyResult> {
  const result: UpsertManyResult = { created: [], updated: [] };
  let pending = inputs;
  for (let attempt = 0; attempt < 3 && pending.length; attempt++) {
    const { rows } = await db.query<{ outcome: 'created' | 'updated' | 'unchanged'; subscriber_id: string }>(upsertManyStatement([environmentId, jsonParam(pending)]));
    const done = new Set<string>();
    for (const row of rows) {
      // An existing subscriber the item leaves as it is counts as updated, as the bulk API reports it.
      result[row.outcome === 'created' ? 'created' : 'updated'].push(row.subscriber_id);
      done.add(row.subscriber_id);
    }
    pending = pending.filter((input) => !done.has(input.subscriberId));
  }
  if (pending.length) throw new Error(`upsertSubscribers: ${pending.length} subscribers kept conflicting`);
  return result;
}

type Queryable = Pick<Pool, 'query'> | Pick<PoolClient, 'query'>;
