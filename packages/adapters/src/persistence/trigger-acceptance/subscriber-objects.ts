import type { SubscriberInput, TriggerAcceptance } from '@herald/domain';
import { subscriberKey } from './pending-trigger';

// Subscriber objects (`SubscriberInput`) that a batch of triggers gives: which count, how they fold
// into one per subscriber, and in which rounds they are upserted. Pure: no SQL.

type Batch = readonly { acceptance: TriggerAcceptance }[];

/** A subscriber object of a trigger, with its environment (as the statements read them). */
export type SubscriberObject = { environment_id: string; e: SubscriberInput };

/** What a batch's objects are, subscriber by subscriber (`subscriberKey`), over the triggers that count (`firstOfTransaction`). */
export interface BatchObjects {
  /**
   * Each object setting something, on its own: whether a subscriber is left as stored (every object
   * leaves it so, and then any of them does, whichever triggers are accepted) is asked of each, not of their fold.
   */
  each: SubscriberObject[];
  /** Per subscriber, the triggers giving it an object (by index in the batch). */
  givers: Map<string, number[]>;
  /** Per subscriber, the object (with its JSON) if every trigger giving one gives the same; null otherwise. */
  objectOf: Map<string, { e: SubscriberInput; json: string } | null>;
  /** Per subscriber whose objects fold into one, that one: it stands for all the batch gives, in batch order. */
  folds: SubscriberObject[];
  /** The subscribers whose objects do not fold into one (two set channels): their recipients are left to their jobs. */
  unfoldable: Set<string>;
}

/** The triggers whose objects count: a trigger repeating an earlier one's transactionId in the batch is not accepted. */
export function firstOfTransaction(batch: Batch): Set<number> {
  const transactions = new Set<string>();
  return new Set(
    batch.flatMap(({ acceptance: a }, idx) => {
      const transaction = `${a.environmentId}/${a.transactionId}`;
      if (transactions.has(transaction)) return [];
      transactions.add(transaction);
      return [idx];
    }),
  );
}

/** The objects setting something (objects setting nothing but the subscriberId change no field) of the triggers that count. */
export function batchObjects(batch: Batch): BatchObjects {
  const first = firstOfTransaction(batch);
  const each: SubscriberObject[] = [];
  const givers = new Map<string, number[]>();
  const objectOf = new Map<string, { e: SubscriberInput; json: string } | null>();
  const setting = new Map<string, SubscriberInput[]>();
  batch.forEach(({ acceptance: a }, idx) => {
    if (!first.has(idx)) return;
    for (const e of a.upserts.filter(setsAttributes)) {
      const key = subscriberKey(a.environmentId, e.subscriberId);
      each.push({ environment_id: a.environmentId, e });
      setting.set(a.environmentId, [...(setting.get(a.environmentId) ?? []), e]);
      givers.set(key, [...(givers.get(key) ?? []), idx]);
      const json = JSON.stringify(e);
      const known = objectOf.get(key);
      if (known === undefined) objectOf.set(key, { e, json });
      else if (known?.json !== json) objectOf.set(key, null);
    }
  });
  const folds: SubscriberObject[] = [];
  const unfoldable = new Set<string>();
  for (const [environment_id, objects] of setting) {
    for (const [subscriberId, [e, ...more]] of foldedPerSubscriber(objects)) {
      if (more.length) unfoldable.add(subscriberKey(environment_id, subscriberId));
      else folds.push({ environment_id, e });
    }
  }
  return { each, givers, objectOf, folds, unfoldable };
}

/**
 * One subscriber's objects, in order, folded into as few as leave it the same when applied one after
 * the other: a later object's fields replace an earlier one's, except that two objects with
 * `channels` stay apart (each merges its channel settings into the stored ones).
 */
export function folded(objects: SubscriberInput[]): SubscriberInput[] {
  const out: SubscriberInput[] = [];
  for (const object of objects) {
    const last = out[out.length - 1];
    if (!last || (last.channels !== undefined && object.channels !== undefined)) out.push({ ...object });
    else for (const [field, value] of Object.entries(object)) if (value !== undefined) Object.assign(last, { [field]: value });
  }
  return out;
}

/** Objects for subscribers of one environment, by subscriberId, each subscriber's `folded`. */
export function foldedPerSubscriber(objects: SubscriberInput[]): Map<string, SubscriberInput[]> {
  const bySubscriber = new Map<string, SubscriberInput[]>();
  for (const object of objects) bySubscriber.set(object.subscriberId, [...(bySubscriber.get(object.subscriberId) ?? []), object]);
  return new Map([...bySubscriber].map(([subscriberId, list]) => [subscriberId, folded(list)]));
}

/**
 * Subscriber objects as rounds of at most one object per subscriber (one upsert statement each):
 * applied round by round, the objects of triggers accepted together leave each subscriber as if the
 * triggers had come one after the other (one statement alone keeps only a subscriber's last object).
 */
export function inTurn(objects: SubscriberInput[]): SubscriberInput[][] {
  const rounds: SubscriberInput[][] = [];
  for (const list of foldedPerSubscriber(objects).values()) list.forEach((object, round) => (rounds[round] ??= []).push(object));
  return rounds;
}

/** The subscriber objects of the batch's triggers that `counts` keeps, per environment, in batch order. */
export function objectsPerEnvironment(batch: Batch, counts: (idx: number) => boolean): Map<string, SubscriberInput[]> {
  const objects = new Map<string, SubscriberInput[]>();
  batch.forEach(({ acceptance: a }, idx) => {
    if (counts(idx) && a.upserts.length) objects.set(a.environmentId, [...(objects.get(a.environmentId) ?? []), ...a.upserts]);
  });
  return objects;
}

/** Whether an upsert changes what a step sees: `{ subscriberId }` alone (a common way to name a recipient) does not. */
export function setsAttributes(input: SubscriberInput): boolean {
  return Object.entries(input).some(([key, value]) => key !== 'subscriberId' && value !== undefined);
}
