import { isChannelType } from '../../entities/channel';
import { validateDeliverySchedule } from '../../entities/delivery-schedule';
import type { ChannelFlags } from '../../entities/preferences';
import { DomainError, type FieldErrors } from '../../errors';
import type { PreferenceRepository } from '../../ports/preference-repository';
import { GetSubscriberPreferences, type SubscriberPreferencesView } from './get-subscriber-preferences';

export interface UpdateSubscriberPreferencesInput {
  environmentId: string;
  subscriberId: string;
  /** Trigger identifier or internal id; absent -> the global level. */
  workflowId?: string;
  channels?: Record<string, unknown>;
  /** The subscriber's delivery schedule (global level only), as a client sends it. */
  schedule?: unknown;
}

/**
 * Merges channel switches into the subscriber's global or per-workflow level, and stores the
 * delivery schedule when given, then returns the resolved view.
 */
export class UpdateSubscriberPreferences {
  constructor(private readonly preferences: PreferenceRepository) {}

  async execute(input: UpdateSubscriberPreferencesInput): Promise<SubscriberPreferencesView> {
    const channels = validChannels(input.channels ?? {});
    if (input.schedule !== undefined && input.workflowId !== undefined) {
      throw DomainError.field('schedule', 'is a global preference: leave out workflowId to set it', input.schedule);
    }
    const schedule = input.schedule === undefined ? undefined : validateDeliverySchedule(input.schedule);
    let workflowInternalId: string | null = null;
    if (input.workflowId !== undefined) {
      const workflow = await this.preferences.findWorkflowSettings(input.environmentId, input.workflowId);
      if (!workflow) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', input.workflowId);
      workflowInternalId = workflow.id;
    }
    if (schedule && !(await this.preferences.setSchedule(input.environmentId, input.subscriberId, schedule))) {
      throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);
    }
    if (!(await this.preferences.mergeSubscriberPreference(input.environmentId, input.subscriberId, workflowInternalId, channels))) {
      throw DomainError.notFound('SUBSCRIBER_NOT_FOUND', 'Subscriber', input.subscriberId);
    }
    return new GetSubscriberPreferences(this.preferences).execute(input.environmentId, input.subscriberId);
  }
}

function validChannels(channels: Record<string, unknown>): ChannelFlags {
  const errors: FieldErrors = {};
  const flags: ChannelFlags = {};
  for (const [channel, value] of Object.entries(channels)) {
    if (!isChannelType(channel)) errors[`channels.${channel}`] = { messages: ['is not a channel type'], value };
    else if (typeof value !== 'boolean') errors[`channels.${channel}`] = { messages: ['must be a boolean'], value };
    else flags[channel] = value;
  }
  if (Object.keys(errors).length) throw DomainError.validation(errors);
  return flags;
}
