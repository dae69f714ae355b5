import type { InlineRecipient, JobOutcome } from '@herald/domain';
import type { Pool } from 'pg';
import type { ChannelCredentialCipher } from '../../security/channel-credential-cipher';
import { preferenceLevels, subscriberFromJson } from '../delivery-rows';
import { newRowId } from '../row-ids';
import { subscriberKey, type PendingTrigger } from './pending-trigger';
import { readRecipients } from './recipient-reads';
import type { RememberedRecipients } from './remembered-recipients';
import { runKey, type RunChecks, type SeenSubscribers } from './run-checks';
import { batchObjects, type SubscriberObject } from './subscriber-objects';

/**
 * The object of a subscriber that needed no upsert (every object of the batch for it leaves it as
 * stored), folded, with the triggers giving it (by index in the batch): if an accepted trigger gives
 * it or names the subscriber and the subscriber no longer exists, the accept statement creates it as
 * this object makes it.
 */
export type ObjectIfMissing = SubscriberObject & { idxs: number[] };

/**
 * A subscriber object that the batch takes as leaving its recipient as stored (the one object every
 * trigger of the batch gives for it, as a read with it found: just now, or remembered), with the row
 * version that read saw and the triggers giving it (by index in the batch): the accept statement
 * applies it if the row has changed since.
 */
export type ObjectIfChanged = SubscriberObject & { seen_version: string; idxs: number[] };

/** What running a batch's inline steps gives its write. */
export interface InlineRun {
  /** Per trigger (by index in the batch), the outcomes of its step's runs; a trigger whose run failed has none. */
  outcomes: Map<number, JobOutcome[]>;
  /** Per trigger, the subscribers its step saw as objects would leave them, to compare after the upsert. */
  seen: SeenSubscribers;
  /** The subscribers read (`subscriberKey`) that the batch's objects leave as stored: their objects need no upsert. */
  leftAsStored: Set<string>;
  ifMissing: ObjectIfMissing[];
  /** Per run, what the accept statement must find unchanged. */
  checks: RunChecks;
  ifChanged: ObjectIfChanged[];
}

/**
 * Reads the direct recipients of the triggers that run a step inline (the ones that exist: as stored,
 * or as the objects the batch gives for them will leave them; a subscriber whose objects do not fold
 * into one is left to its jobs; `readRecipients`) and runs the step for them. A trigger whose run
 * fails keeps the queued path for all its recipients.
 */
export async function runInline(pool: Pool, remembered: RememberedRecipients, batch: PendingTrigger[], channels: ChannelCredentialCipher): Promise<InlineRun> {
  const objects = batchObjects(batch);
  const { givers, objectOf, folds, unfoldable } = objects;
  const wanted = batch.flatMap(({ acceptance: a, runInline }, idx) => {
    if (!runInline) return [];
    const ids = a.recipients.subscriberIds.filter((id) => !unfoldable.has(subscriberKey(a.environmentId, id)));
    return ids.length ? [{ idx, environment_id: a.environmentId, workflow_id: a.workflow.id, subscriber_ids: ids }] : [];
  });
  const seen: SeenSubscribers = new Map();
  const leftAsStored = new Set<string>();
  const checks: RunChecks = new Map();
  const ifChanged = new Map<string, ObjectIfChanged>();
  if (!wanted.length) return { outcomes: new Map(), seen, leftAsStored, ifMissing: [], checks, ifChanged: [] };
  const rows = await readRecipients(pool, remembered, batch, wanted, objects);
  const recipients = new Map<number, InlineRecipient[]>();
  for (const r of rows) {
    const { acceptance: a, inlineIds } = batch[r.idx];
    const subscriber = subscriberKey(a.environmentId, r.subscriber.subscriber_id as string);
    const object = objectOf.get(subscriber);
    // Left as stored (no upsert): given no object that sets anything, or one object (however many
    // triggers give it) that leaves it as it is. The statement compares its row with the one the
    // step saw and, if it changed meanwhile, applies the object (`ifChanged`) and queues the step.
    const settles = r.unchanged === null || (r.unchanged === true && !!object);
    if (settles) leftAsStored.add(subscriber);
    if (r.folded && settles) ifChanged.set(subscriber, { environment_id: a.environmentId, e: object!.e, seen_version: r.version, idxs: givers.get(subscriber)! });
    const recipient = subscriberFromJson(r.subscriber, channels);
    checks.set(runKey(r.idx, recipient.id), { version: r.folded && !settles ? null : r.version, preferences: r.preferences, key: r.key });
    const ids = inlineIds.get(recipient.id) ?? { notificationId: newRowId(), inlineJobId: newRowId() };
    inlineIds.set(recipient.id, ids);
    if (r.folded) seen.set(r.idx, [...(seen.get(r.idx) ?? []), { environment_id: a.environmentId, subscriber: r.subscriber, notificationId: ids.notificationId }]);
    const list = recipients.get(r.idx) ?? [];
    list.push({ ...ids, recipient, subscriberPreferences: preferenceLevels(r.preferences) });
    recipients.set(r.idx, list);
  }
  const outcomes = await Promise.all(
    [...recipients].map(async ([idx, list]) => [idx, await batch[idx].runInline!(list, batch[idx].acceptance).catch((): JobOutcome[] => [])] as const),
  );
  const ifMissing = folds.flatMap(({ environment_id, e }) => {
    const key = subscriberKey(environment_id, e.subscriberId);
    return leftAsStored.has(key) ? [{ environment_id, e, idxs: givers.get(key)! }] : [];
  });
  return { outcomes: new Map(outcomes), seen, leftAsStored, ifMissing, checks, ifChanged: [...ifChanged.values()] };
}
