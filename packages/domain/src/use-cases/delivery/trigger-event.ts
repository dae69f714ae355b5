import { randomUUID } from 'node:crypto';
import type { JsonObject, TriggerStatus } from '../../entities/delivery';
import type { SubscriberInput } from '../../entities/subscriber';
import { validateSubscriberAttributes } from '../../entities/subscriber';
import { DomainError } from '../../errors';
import type { EventRepository } from '../../ports/event-repository';
import type { IntegrationRepository } from '../../ports/integration-repository';
import { normalizeRecipients } from '../../rules/normalize-recipients';
import { resolveRecipientChannels } from '../../rules/resolve-recipient-channels';
import { validatePayload } from '../../rules/validate-payload';
import { toContextKeys } from '../../shared/context-keys';
import { inlineRunner } from './inline-step';
import type { RunNotifications } from './run-notifications';

export interface TriggerEventInput {
  environmentId: string;
  name: string;
  to: unknown;
  payload?: JsonObject;
  overrides?: JsonObject;
  transactionId?: string;
  actor?: string | (Partial<SubscriberInput> & { subscriberId: string });
  tenant?: string | JsonObject;
  context?: Record<string, string | { id: string }>;
}

export interface TriggerEventOutput {
  acknowledged: boolean;
  status: TriggerStatus;
  transactionId?: string;
  error?: string[];
}

/**
 * Accepts a trigger: the answer is sent only after the event and its first work are committed
 * (the durable hand-off); delivery happens in workers. A reused transactionId commits nothing.
 * With `steps`, a workflow that starts with an in-app step has it run for the existing direct
 * recipients within the acceptance (see `inlineStep`): their inbox messages commit with the event.
 */
export class TriggerEvent {
  constructor(
    private readonly events: EventRepository,
    private readonly integrations: Pick<IntegrationRepository, 'list'>,
    private readonly steps?: RunNotifications,
  ) {}

  async execute(input: TriggerEventInput): Promise<TriggerEventOutput> {
    const recipients = normalizeRecipients(input.to);
    const workflow = await this.events.findWorkflow(input.environmentId, input.name);
    if (!workflow) throw DomainError.field('name', `workflow '${input.name}' was not found`, input.name);
    const transactionId = input.transactionId ?? randomUUID();
    if (!workflow.active) {
      return { acknowledged: true, status: 'trigger_not_active', transactionId, error: [`workflow '${workflow.identifier}' is not active`] };
    }
    if (!workflow.steps.length) {
      return { acknowledged: true, status: 'no_workflow_steps_defined', transactionId, error: [`workflow '${workflow.identifier}' has no steps`] };
    }
    if (!workflow.steps.some((s) => s.active)) {
      return { acknowledged: true, status: 'no_workflow_active_steps_defined', transactionId, error: [`workflow '${workflow.identifier}' has no active steps`] };
    }
    const payload = input.payload ?? {};
    // A synced workflow's schema is the bridge's to enforce: its refusal is recorded in the activity
    // log (as the original service does for code-defined workflows), not answered here.
    const payloadErrors = workflow.origin === 'external' ? {} : validatePayload(workflow.payloadSchema, payload);
    if (Object.keys(payloadErrors).length) {
      throw new DomainError('PAYLOAD_INVALID', `payload does not match the workflow's schema: ${Object.entries(payloadErrors).map(([f, e]) => `${f} ${e.messages[0]}`).join('; ')}`, payloadErrors);
    }

    const actor = typeof input.actor === 'string' ? { subscriberId: input.actor } : input.actor;
    // Integrations are read only for the rare trigger whose recipients carry channel settings.
    const recipientUpserts = recipients.upserts.some((s) => s.channels?.length)
      ? resolveRecipientChannels(recipients.upserts, await this.integrations.list(input.environmentId))
      : recipients.upserts;
    const upserts = [...recipientUpserts, ...(actor && typeof input.actor === 'object' ? [{ ...actor, channels: undefined } as SubscriberInput] : [])];
    upserts.forEach((subscriber, i) => {
      const errors = validateSubscriberAttributes(subscriber);
      const [field] = Object.keys(errors);
      if (field) throw DomainError.field(i < recipients.upserts.length ? `to.${subscriber.subscriberId}.${field}` : `actor.${field}`, errors[field].messages[0], errors[field].value);
    });
    if (!recipients.subscriberIds.length && !recipients.topics.length) {
      return { acknowledged: true, status: 'invalid_recipients', transactionId, error: ['no valid recipient in `to`'] };
    }

    const acceptance = {
      environmentId: input.environmentId,
      workflow,
      transactionId,
      payload,
      overrides: input.overrides ?? {},
      to: input.to,
      actor: actor ? { subscriberId: actor.subscriberId } : null,
      tenant: input.tenant ?? null,
      contextKeys: toContextKeys(input.context),
      recipients,
      upserts,
    };
    const runInline = recipients.subscriberIds.length ? inlineRunner(this.steps, workflow) : undefined;
    const outcome = await this.events.accept(acceptance, runInline);
    if (outcome.accepted) this.steps?.recorded(outcome.inline);
    if (!outcome.accepted) {
      return {
        acknowledged: false,
        status: 'error',
        transactionId,
        error: [`transactionId '${transactionId}' was already used by an earlier trigger; this trigger was ignored and nothing was sent`],
      };
    }
    return { acknowledged: true, status: 'processed', transactionId };
  }
}
