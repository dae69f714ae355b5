import type { DeliveryWorkflow, TriggerAcceptance } from '@herald/domain';
import { describe, expect, it } from 'vitest';
import { ACCEPT_PARAMS, acceptParams } from './accept-params';

const workflow = (id: string): DeliveryWorkflow => ({
  id,
  identifier: `wf-${id.slice(-1)}`,
  name: 'wf',
  active: true,
  critical: false,
  severity: 'none',
  origin: 'novu-cloud',
  tags: ['t'],
  data: null,
  payloadSchema: null,
  preferences: {} as DeliveryWorkflow['preferences'],
  steps: [{ id: '00000000-0000-4000-8000-00000000000a', stepId: 'inbox', name: 'inbox', type: 'in_app', active: true, position: 0, controlValues: {}, skip: null, filters: [] }],
});
const trigger = (workflow: DeliveryWorkflow, transactionId: string, eventId: string, subscriberIds: string[]) => ({
  eventId,
  acceptance: {
    environmentId: '00000000-0000-4000-8000-0000000000e0',
    workflow,
    transactionId,
    payload: {},
    overrides: {},
    to: subscriberIds,
    actor: null,
    tenant: null,
    contextKeys: [],
    recipients: { subscriberIds, upserts: [], topics: [] },
    upserts: [],
  } satisfies TriggerAcceptance,
});
const noRun = { outcomes: new Map(), checks: new Map(), ifMissing: [], ifChanged: [] };
/** The element count of a binary array parameter (`arrayParam`): none without a dimension, else its one dimension's length. */
const elements = (value: unknown) => (value === null ? null : (value as Buffer).readInt32BE(0) === 0 ? 0 : (value as Buffer).readInt32BE(12));

describe('the accept statement\'s parameters', () => {
  it('are laid out per trigger, definitions, named subscribers, runs, objects and messages: 42 in all', () => {
    expect(ACCEPT_PARAMS.size).toBe(42);
    const firsts = (['triggers', 'definitions', 'namedTriggers', 'namedSubscriberIds', 'runs', 'objectsIfMissing', 'objectsIfChanged', 'messages'] as const).map((g) => ACCEPT_PARAMS.first(g));
    expect(firsts).toEqual([1, 15, 16, 17, 18, 28, 29, 30]);
  });

  it('give each trigger a row of every column, each named subscriber a row, and a workflow object one definition', () => {
    const shared = workflow('00000000-0000-4000-8000-000000000001');
    const batch = [
      trigger(shared, 'a', '00000000-0000-4000-8000-0000000000a1', ['ada', 'bob']),
      trigger(workflow('00000000-0000-4000-8000-000000000002'), 'b', '00000000-0000-4000-8000-0000000000a2', []),
      trigger(shared, 'c', '00000000-0000-4000-8000-0000000000a3', ['cy']),
    ];
    const values = acceptParams(batch, noRun);
    expect(values).toHaveLength(42);
    const at = (group: Parameters<typeof ACCEPT_PARAMS.first>[0], i = 0) => values[ACCEPT_PARAMS.first(group) - 1 + i];
    // The event ids, then the def of each trigger (its workflow's definition), in batch order.
    expect([elements(at('triggers')), elements(at('triggers', 13))]).toEqual([3, 3]);
    expect((at('triggers', 13) as Buffer).subarray(20).toString('hex')).toBe(['00000004', '00000000', '00000004', '00000001', '00000004', '00000000'].join(''));
    expect(JSON.parse(at('definitions') as string).map((d: { def: number; message_workflow: { id: string } }) => [d.def, d.message_workflow.id])).toEqual([
      [0, shared.id],
      [1, '00000000-0000-4000-8000-000000000002'],
    ]);
    expect([elements(at('namedTriggers')), elements(at('namedSubscriberIds'))]).toEqual([3, 3]);
    // No trigger ran a step inline: empty run arrays, no message content, no objects.
    expect([elements(at('runs')), at('runs', 5), at('objectsIfMissing'), at('objectsIfChanged'), at('messages')]).toEqual([0, null, '[]', '[]', null]);
  });
});
