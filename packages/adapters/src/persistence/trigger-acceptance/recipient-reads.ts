import type { Pool } from 'pg';
import { stepPreferences } from '../delivery-rows';
import { jsonParam, prepared } from '../sql-params';
import { SUBSCRIBER_CHANGES, UPDATED_SUBSCRIBER_JSON } from '../subscriber-sql';
import type { PendingTrigger } from './pending-trigger';
import { subscriberKey } from './pending-trigger';
import { storedKey, withObjectKey, type RecipientRead, type RememberedRecipients } from './remembered-recipients';
import { rowVersion } from './run-checks';
import type { BatchObjects } from './subscriber-objects';

// The direct recipients of triggers that run a step inline, with their preferences for the trigger's
// workflow: as stored, or, for one the batch gives an object for ($2, at most one per subscriber), as
// upserting that object will leave it; and whether each of the batch's objects for it ($3, one by
// one) leaves it as stored (`unchanged`; NULL: none). A subscriber that does not exist yet is not returned.
// With the stored row's version (`rowVersion`), which the accept statement compares (`RunCheck`).
const INLINE_RECIPIENTS = `
SELECT r.idx, i.e IS NOT NULL AS folded, ${rowVersion('s')} AS row_version,
  (SELECT bool_and(NOT ${SUBSCRIBER_CHANGES}) FROM jsonb_to_recordset($3::jsonb) AS i(environment_id uuid, e jsonb)
   WHERE i.environment_id = s.environment_id AND i.e->>'subscriberId' = s.subscriber_id) AS unchanged,
  CASE WHEN i.e IS NULL THEN row_to_json(s.*) ELSE (${UPDATED_SUBSCRIBER_JSON})::json END AS subscriber,
  ${stepPreferences('s.id', 'r.workflow_id')} AS preferences
FROM jsonb_to_recordset($1::jsonb) AS r(idx int, environment_id uuid, workflow_id uuid, subscriber_ids text[])
CROSS JOIN LATERAL unnest(r.subscriber_ids) AS sid
JOIN subscribers s ON s.environment_id = r.environment_id AND s.subscriber_id = sid
LEFT JOIN jsonb_to_recordset($2::jsonb) AS i(environment_id uuid, e jsonb) ON i.environment_id = s.environment_id AND i.e->>'subscriberId' = s.subscriber_id`;

const inlineRecipientsStatement = prepared('herald-inline-recipients', INLINE_RECIPIENTS);

/** A trigger that runs its step inline, with the recipients it names by id (those whose objects fold into one). */
export type WantedRecipients = { idx: number; environment_id: string; workflow_id: string; subscriber_ids: string[] };

/**
 * A recipient the step runs on, for trigger `idx`: read just now or remembered. `folded`: read as the
 * batch's object for it leaves it; `unchanged`: whether every object of the batch for it leaves it as
 * stored (null: none); `key`: where the read is remembered.
 */
export type RecipientRow = { idx: number; folded: boolean; unchanged: boolean | null; key?: string } & RecipientRead;

/**
 * The recipients of `wanted` that exist, each from memory when remembered (`RecipientRead`), the
 * others in one statement: as stored, when no object of the batch changes it, or with the one object
 * every trigger of the batch gives for it. A recipient given an object is taken from memory only if
 * it is remembered for every trigger running a step on it: otherwise all of them read it, so that
 * its rows agree (one read). A read is remembered as stored (given no object), or with the batch's
 * one object for it when that object leaves it as stored.
 */
export async function readRecipients(
  pool: Pool,
  remembered: RememberedRecipients,
  batch: PendingTrigger[],
  wanted: WantedRecipients[],
  { objectOf, folds, each }: Pick<BatchObjects, 'objectOf' | 'folds' | 'each'>,
): Promise<RecipientRow[]> {
  const rememberedWithObject = new Map<string, RecipientRead>();
  const fromMemory = new Map<string, boolean>();
  for (const w of wanted) {
    for (const sid of w.subscriber_ids) {
      const subscriber = subscriberKey(w.environment_id, sid);
      const object = objectOf.get(subscriber);
      if (object === undefined) continue;
      const key = object && withObjectKey(storedKey(w.environment_id, w.workflow_id, sid), object);
      const read = key ? remembered.get(key) : undefined;
      if (read) rememberedWithObject.set(key!, read);
      fromMemory.set(subscriber, (fromMemory.get(subscriber) ?? true) && !!read);
    }
  }
  const rows: RecipientRow[] = [];
  const unread = wanted.flatMap((w) => {
    const ids = w.subscriber_ids.filter((sid) => {
      const key = storedKey(w.environment_id, w.workflow_id, sid);
      const subscriber = subscriberKey(w.environment_id, sid);
      const object = objectOf.get(subscriber);
      if (object === undefined) {
        const read = remembered.get(key);
        if (read) rows.push({ idx: w.idx, folded: false, unchanged: null, key, ...read });
        return !read;
      }
      // The batch's objects may leave it otherwise than remembered as stored: forgotten.
      remembered.forget(key);
      const read = object && fromMemory.get(subscriber) ? rememberedWithObject.get(withObjectKey(key, object)) : undefined;
      if (!object || !read) return true;
      rows.push({ idx: w.idx, folded: true, unchanged: true, key: withObjectKey(key, object), ...read });
      return false;
    });
    return ids.length ? [{ ...w, subscriber_ids: ids }] : [];
  });
  if (unread.length) {
    const { rows: read } = await pool.query<Omit<RecipientRow, 'version'> & { row_version: string }>(
      inlineRecipientsStatement([jsonParam(unread), jsonParam(folds), jsonParam(each)]),
    );
    for (const { row_version: version, ...r } of read) {
      const { acceptance: a } = batch[r.idx];
      const subscriberId = r.subscriber.subscriber_id as string;
      const stored = storedKey(a.environmentId, a.workflow.id, subscriberId);
      const object = objectOf.get(subscriberKey(a.environmentId, subscriberId));
      const key = object === undefined ? stored : object && r.unchanged === true ? withObjectKey(stored, object) : undefined;
      if (key) remembered.set(key, { subscriber: r.subscriber, preferences: r.preferences, version });
      rows.push({ ...r, version, key });
    }
  }
  return rows;
}
