import type { JobOutcome } from '@herald/domain';
import type { PoolClient } from 'pg';
import { jsonParam, prepared } from '../sql-params';
import type { AcceptedRow } from './accept-statement';
import type { RecipientRead, RememberedRecipients } from './remembered-recipients';

/**
 * SQL: a version of subscriber row `s` that any write of it changes: the row version's transaction id
 * (`xmin`; every write makes a new row version), with its update time, in case a transaction id is
 * handed out again (a database restored, or failed over to a standby that lost commits).
 */
export function rowVersion(s: string): string {
  return `${s}.xmin::text || '/' || extract(epoch FROM ${s}.updated_at)::text`;
}

/**
 * What a run saw, which the accept statement compares with what is stored (`ran`): it writes the run
 * only if the recipient's preferences are the same and, unless `version` is null, so is its row;
 * otherwise it queues the step. A read just now may be a few milliseconds old, a remembered one up
 * to a minute (`RememberedRecipients`). The row is not compared for a recipient just read as objects
 * that change it leave it: the transaction compares it after the upsert (`CHANGED_SUBSCRIBERS`),
 * ignoring its presence. Any other write of the row refuses the run, presence included. `key`: where
 * the read is remembered, to be forgotten when the run is refused.
 */
export type RunCheck = { version: string | null; preferences: RecipientRead['preferences']; key?: string };

/** Per trigger and recipient (`runKey`), the check of its run. */
export type RunChecks = Map<string, RunCheck>;

export const runKey = (idx: number, subscriberRowId: string) => `${idx}/${subscriberRowId}`;

/** Per trigger of a batch, the subscribers (as JSON rows) its step saw as objects would leave them, with the runs' notification ids. */
export type SeenSubscribers = Map<number, { environment_id: string; subscriber: Record<string, unknown>; notificationId: string }[]>;

// Of the subscribers steps ran on as objects would leave them ($1: each as a step saw it), the ones
// stored otherwise now that the objects are applied (their version, update time and presence aside:
// no step reads them, `StepSubscriber`). An Inbox connecting or leaving sets the presence, and so
// moves the version on: compared, it would send such a trigger's batch to be accepted again one by one.
const CHANGED_SUBSCRIBERS = `
SELECT s.subscriber_id FROM jsonb_to_recordset($1::jsonb) AS r(environment_id uuid, subscriber jsonb)
JOIN subscribers s ON s.environment_id = r.environment_id AND s.id = (r.subscriber->>'id')::uuid
WHERE to_jsonb(s.*) - '{version,updated_at,is_online,last_online_at}'::text[]
  IS DISTINCT FROM r.subscriber - '{version,updated_at,is_online,last_online_at}'::text[]`;

const changedSubscribersStatement = prepared('herald-changed-subscribers', CHANGED_SUBSCRIBERS);

/** A step run on a subscriber as the batch's objects would leave them: a change of plan if they are not applied as seen. */
export class SubscriberChanged extends Error {}

/**
 * In the accept transaction, after the accepted triggers' objects are upserted: throws
 * `SubscriberChanged` if a subscriber that a kept run of an accepted trigger saw as objects would
 * leave it is stored otherwise: another request changed it since it was read, or a trigger giving an
 * object was a duplicate (its object is not applied). Only the runs the statement kept count: a
 * refused one is queued, and rendered nothing.
 */
export async function assertSeenAsStored(client: PoolClient, rows: AcceptedRow[], accepted: Set<number>, seen: SeenSubscribers): Promise<void> {
  const kept = new Set(rows.flatMap((r) => r.inline_ids));
  const seenByAccepted = [...seen].flatMap(([idx, subscribers]) =>
    accepted.has(idx) ? subscribers.filter((s) => kept.has(s.notificationId)).map(({ environment_id, subscriber }) => ({ environment_id, subscriber })) : [],
  );
  if (seenByAccepted.length) {
    const { rows: changed } = await client.query(changedSubscribersStatement([jsonParam(seenByAccepted)]));
    if (changed.length) throw new SubscriberChanged(`subscriber ${changed[0].subscriber_id} is not as a step saw it`);
  }
}

/** Forgets the remembered reads that accepted triggers' runs were not written on: the subscriber or its preferences changed. */
export function forgetRefused(remembered: RememberedRecipients, rows: AcceptedRow[], outcomes: Map<number, JobOutcome[]>, checks: RunChecks): void {
  for (const { idx, inline_ids } of rows) {
    for (const { job } of outcomes.get(idx) ?? []) {
      const key = checks.get(runKey(idx, job.subscriber.id))?.key;
      if (key && !inline_ids.includes(job.notificationId)) remembered.forget(key);
    }
  }
}
