import { z } from '@hono/zod-openapi';
import { ScheduleSchema } from '../../platform/schedule-schema';
import { ChannelFlagsShape } from './channel-flags';

const ContextValue = z.union([z.string(), z.strictObject({ id: z.string(), data: z.record(z.string(), z.unknown()).optional() })]);

/** What @novu/api sends; a misspelt key is refused, never read as "no workflowId" (a global change). */
export const PatchPreferencesSchema = z
  .strictObject({
    channels: z.strictObject(ChannelFlagsShape).optional(),
    workflowId: z.string().min(1).optional().openapi({ description: 'Trigger identifier or id; absent -> global preferences' }),
    schedule: ScheduleSchema.optional().openapi({ description: 'The delivery schedule (global preferences only)' }),
    context: z
      .record(z.string(), ContextValue)
      .refine((context) => !Object.keys(context).length, 'is not supported: Herald keeps one set of preferences per subscriber, not one per context')
      .optional(),
  })
  .refine((body) => body.channels !== undefined || body.schedule !== undefined, { path: ['channels'], message: 'is required (or schedule)' })
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
