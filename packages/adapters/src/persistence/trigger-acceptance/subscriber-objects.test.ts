import type { SubscriberInput, TriggerAcceptance } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { batchObjects, firstOfTransaction, folded, foldedPerSubscriber, inTurn, objectsPerEnvironment, setsAttributes } from './subscriber-objects';

const phone = (token: string) => [{ providerId: 'fcm', _integrationId: 'i-1', credentials: { deviceTokens: [token] } }];
/** A trigger of the batch, as far as its objects go. */
const trigger = (transactionId: string, upserts: SubscriberInput[], environmentId = 'env-a') => ({
  acceptance: { environmentId, transactionId, upserts } as Pick<TriggerAcceptance, 'environmentId' | 'transactionId' | 'upserts'> as TriggerAcceptance,
});

describe('folded', () => {
  it('applies later fields over earlier ones, keeps fields left out, and lets null clear', () => {
    expect(
      folded([
        { subscriberId: 'a', firstName: 'First', email: 'a@example.com', data: null },
        { subscriberId: 'a', firstName: 'Second', lastName: undefined, phone: null },
        { subscriberId: 'a' },
      ]),
    ).toEqual([{ subscriberId: 'a', firstName: 'Second', email: 'a@example.com', data: null, phone: null }]);
  });

  it('keeps two objects setting channels apart (each merges into the stored channels), folding the others into them', () => {
    const objects = [
      { subscriberId: 'a', lastName: 'One', channels: phone('t1') },
      { subscriberId: 'a', firstName: 'Between' },
      { subscriberId: 'a', lastName: 'Two', channels: phone('t2') },
    ];
    expect(folded(objects)).toEqual([
      { subscriberId: 'a', lastName: 'One', firstName: 'Between', channels: phone('t1') },
      { subscriberId: 'a', lastName: 'Two', channels: phone('t2') },
    ]);
  });

  it('leaves the objects it was given as they were', () => {
    const first = { subscriberId: 'a', firstName: 'First' };
    folded([first, { subscriberId: 'a', firstName: 'Second' }]);
    expect(first).toEqual({ subscriberId: 'a', firstName: 'First' });
  });
});

describe('foldedPerSubscriber and inTurn', () => {
  const objects = [
    { subscriberId: 'a', channels: phone('t1') },
    { subscriberId: 'b', firstName: 'B' },
    { subscriberId: 'a', channels: phone('t2') },
    { subscriberId: 'b', lastName: 'Bee' },
  ];

  it('folds each subscriber\'s objects on their own', () => {
    expect(foldedPerSubscriber(objects)).toEqual(
      new Map([
        ['a', [{ subscriberId: 'a', channels: phone('t1') }, { subscriberId: 'a', channels: phone('t2') }]],
        ['b', [{ subscriberId: 'b', firstName: 'B', lastName: 'Bee' }]],
      ]),
    );
  });

  it('puts at most one object per subscriber in each round, in the order they were given', () => {
    expect(inTurn(objects)).toEqual([
      [
        { subscriberId: 'a', channels: phone('t1') },
        { subscriberId: 'b', firstName: 'B', lastName: 'Bee' },
      ],
      [{ subscriberId: 'a', channels: phone('t2') }],
    ]);
  });
});

describe('setsAttributes', () => {
  it('is false for an object naming only its subscriber, or giving only undefined fields', () => {
    expect([setsAttributes({ subscriberId: 'a' }), setsAttributes({ subscriberId: 'a', firstName: undefined })]).toEqual([false, false]);
    expect([setsAttributes({ subscriberId: 'a', firstName: null }), setsAttributes({ subscriberId: 'a', data: {} })]).toEqual([true, true]);
  });
});

describe('the objects of a batch', () => {
  it('counts only the first trigger of a transactionId in its environment', () => {
    const batch = [trigger('t1', []), trigger('t2', []), trigger('t1', []), trigger('t1', [], 'env-b')];
    expect(firstOfTransaction(batch)).toEqual(new Set([0, 1, 3]));
  });

  it('groups the objects of the triggers kept per environment, in batch order', () => {
    const batch = [trigger('t1', [{ subscriberId: 'a' }]), trigger('t2', [{ subscriberId: 'b' }], 'env-b'), trigger('t3', [{ subscriberId: 'c' }])];
    expect(objectsPerEnvironment(batch, (idx) => idx !== 1)).toEqual(new Map([['env-a', [{ subscriberId: 'a' }, { subscriberId: 'c' }]]]));
  });

  it('keeps per subscriber its givers, the one object all give (null when they differ), and one fold, or none when they do not fold', () => {
    const renamed = { subscriberId: 'a', firstName: 'A' };
    const batch = [
      trigger('t1', [renamed, { subscriberId: 'named-only' }]),
      trigger('t2', [renamed, { subscriberId: 'b', firstName: 'B' }]),
      // A repeated transaction: its objects do not count.
      trigger('t1', [{ subscriberId: 'a', firstName: 'Ignored' }]),
      trigger('t3', [{ subscriberId: 'b', lastName: 'Bee' }, { subscriberId: 'p', channels: phone('t1') }]),
      trigger('t4', [{ subscriberId: 'p', channels: phone('t2') }]),
    ];
    const objects = batchObjects(batch);
    expect(objects.each.map(({ e }) => e.subscriberId)).toEqual(['a', 'a', 'b', 'b', 'p', 'p']);
    expect(objects.givers).toEqual(
      new Map([
        ['env-a/a', [0, 1]],
        ['env-a/b', [1, 3]],
        ['env-a/p', [3, 4]],
      ]),
    );
    expect(objects.objectOf.get('env-a/a')).toEqual({ e: renamed, json: JSON.stringify(renamed) });
    expect([objects.objectOf.get('env-a/b'), objects.objectOf.get('env-a/p'), objects.objectOf.has('env-a/named-only')]).toEqual([null, null, false]);
    expect(objects.folds).toEqual([
      { environment_id: 'env-a', e: renamed },
      { environment_id: 'env-a', e: { subscriberId: 'b', firstName: 'B', lastName: 'Bee' } },
    ]);
    expect(objects.unfoldable).toEqual(new Set(['env-a/p']));
  });
});
