import { describe, expect, it } from 'vitest';
import type { DeliveryStep, DeliveryWorkflow, TriggerAcceptance } from '../../entities/delivery';
import type { AcceptOutcome, EventRepository } from '../../ports/event-repository';
import type { JobOutcome, JobRepository } from '../../ports/job-repository';
import { InMemorySubscriberRepository } from '../../testing/in-memory-subscriber-repository';
import type { InlineRecipient, RunInline } from './inline-step';
import { RunNotifications, type StepHandlers } from './run-notifications';
import { InAppStepHandler } from './steps/in-app-step-handler';
import { TriggerEvent } from './trigger-event';

const step = (stepId: string, type: DeliveryStep['type'], active = true, controlValues: Record<string, unknown> = {}): DeliveryStep => ({
  id: `${stepId}-id`,
  stepId,
  name: stepId,
  type,
  active,
  position: 0,
  controlValues,
  skip: null,
  filters: [],
});

const workflow = (steps: DeliveryStep[]): DeliveryWorkflow => ({
  id: 'wf-id',
  identifier: 'wf',
  name: 'wf',
  active: true,
  critical: false,
  severity: 'none',
  origin: 'novu-cloud',
  tags: [],
  data: null,
  payloadSchema: null,
  preferences: {},
  steps: steps.map((s, position) => ({ ...s, position })),
});

const ada = (await new InMemorySubscriberRepository().insert('env', { subscriberId: 'ada', firstName: 'Ada' }))!;
const recipient: InlineRecipient = { notificationId: 'n-1', inlineJobId: 'j-1', recipient: ada, subscriberPreferences: { global: null, perWorkflow: null } };

/** A repository that runs the inline step the way a real one does (for the recipients it read) and reports it written. */
function events(wf: DeliveryWorkflow) {
  const seen: { runInline?: RunInline; acceptance?: TriggerAcceptance } = {};
  const repository = {
    findWorkflow: async () => wf,
    async accept(acceptance: TriggerAcceptance, runInline?: RunInline): Promise<AcceptOutcome> {
      seen.acceptance = acceptance;
      seen.runInline = runInline;
      const inline = runInline ? await runInline([recipient], { ...acceptance, traceContext: 'trace' }) : [];
      return { accepted: true, eventId: 'e-1', notifications: 1, inline };
    },
  } as unknown as EventRepository;
  return { repository, seen };
}

function engine() {
  const recorded: JobOutcome[] = [];
  const handlers = { in_app: new InAppStepHandler('herald') } as Partial<StepHandlers> as StepHandlers;
  const steps = new RunNotifications({} as JobRepository, handlers, { recorded: (outcomes) => recorded.push(...outcomes) });
  return { steps, recorded };
}

const integrations = { list: async () => [] };

describe('TriggerEvent', () => {
  it('runs a first in-app step within the acceptance, and tells the observers what was written', async () => {
    const wf = workflow([step('inbox', 'in_app', true, { body: 'Hi {{subscriber.firstName}}, order {{payload.order}}' }), step('mail', 'email')]);
    const { repository, seen } = events(wf);
    const { steps, recorded } = engine();
    const result = await new TriggerEvent(repository, integrations, steps).execute({ environmentId: 'env', name: 'wf', to: 'ada', payload: { order: 7 } });
    expect(result.status).toBe('processed');
    expect(seen.runInline).toBeDefined();
    expect(recorded).toHaveLength(1);
    const [outcome] = recorded;
    expect(outcome.status).toBe('completed');
    expect(outcome.message?.body).toBe('Hi Ada, order 7');
    expect(outcome.job).toMatchObject({ jobId: 'j-1', notificationId: 'n-1', step: { stepId: 'inbox' }, subscriber: { subscriberId: 'ada' }, traceContext: 'trace', steps: {} });
  });

  it('queues every step when the first active step is not in-app, or there is no direct recipient', async () => {
    for (const [wf, to] of [
      [workflow([step('mail', 'email'), step('inbox', 'in_app')]), 'ada'],
      [workflow([step('inbox', 'in_app', false), step('mail', 'email')]), 'ada'],
      [workflow([step('inbox', 'in_app')]), [{ type: 'Topic', topicKey: 'vip' }]],
    ] as const) {
      const { repository, seen } = events(wf);
      const { steps, recorded } = engine();
      await new TriggerEvent(repository, integrations, steps).execute({ environmentId: 'env', name: 'wf', to });
      expect(seen.acceptance).toBeDefined();
      expect(seen.runInline).toBeUndefined();
      expect(recorded).toEqual([]);
    }
  });

  it('queues every step without a step engine', async () => {
    const { repository, seen } = events(workflow([step('inbox', 'in_app')]));
    await new TriggerEvent(repository, integrations).execute({ environmentId: 'env', name: 'wf', to: 'ada' });
    expect(seen.runInline).toBeUndefined();
  });
});
