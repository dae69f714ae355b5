import { z } from '@hono/zod-openapi';
import { ScheduleSchema } from '../../platform/schedule-schema';

const channelFlag = z.boolean().optional();

export const PatchPreferencesSchema = z
  .object({
    channels: z.object({ email: channelFlag, sms: channelFlag, in_app: channelFlag, push: channelFlag, chat: channelFlag }).optional(),
    workflowId: z.string().min(1).optional().openapi({ description: 'Trigger identifier or id; absent -> global preferences' }),
    schedule: ScheduleSchema.optional().openapi({ description: 'The delivery schedule (global preferences only)' }),
  })
  .openapi('PatchSubscriberPreferencesRequest');

const ChannelsSchema = z.object({ email: z.boolean(), sms: z.boolean(), in_app: z.boolean(), chat: z.boolean(), push: z.boolean() });

export const SubscriberPreferencesSchema = z
  .object({
    global: z.object({ enabled: z.boolean(), channels: ChannelsSchema, schedule: ScheduleSchema.optional() }),
    workflows: z.array(
      z.object({
        enabled: z.boolean(),
        channels: ChannelsSchema,
        overrides: z.array(
          z.object({
            channel: z.enum(['in_app', 'email', 'sms', 'chat', 'push']),
            source: z.enum(['template', 'subscriber']).openapi({ description: 'template: the workflow decided; subscriber: a subscriber preference' }),
          }),
        ),
        workflow: z.object({ slug: z.string(), identifier: z.string(), name: z.string(), updatedAt: z.string() }),
      }),
    ),
  })
  .openapi('SubscriberPreferences');
