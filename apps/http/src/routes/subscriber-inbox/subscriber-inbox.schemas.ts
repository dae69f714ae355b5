import { z } from '@hono/zod-openapi';
import { INBOX_ACTION_TYPES, PREFERENCE_CRITICALITIES, SEVERITIES } from '@herald/domain';
import { ScheduleSchema } from '../../platform/schedule-schema';
import { queryArray } from '../../platform/schemas';
import { InboxListQuerySchema, TagsSelectorSchema } from '../inbox/inbox.schemas';
import { ChannelFlagsShape } from '../preferences/channel-flags';

/** What `@novu/js` posts to start a session; its `subscriber` profile is stored only when the session is HMAC-verified. */
export const SessionBodySchema = z
  .strictObject({
    applicationIdentifier: z.string().min(1),
    subscriberHash: z.string().optional(),
    contextHash: z.string().optional(),
    subscriber: z
      .strictObject({
        // @novu/js's Subscriber type: `id` is the internal id, which Herald does not take from a browser.
        id: z.string().optional(),
        subscriberId: z.string().min(1).max(256),
        firstName: z.string().nullish(),
        lastName: z.string().nullish(),
        email: z.string().nullish(),
        phone: z.string().nullish(),
        avatar: z.string().nullish(),
        locale: z.string().nullish(),
        timezone: z.string().nullish(),
        data: z.record(z.string(), z.unknown()).nullish(),
      }),
    defaultSchedule: z.unknown().optional(),
    context: z.unknown().optional(),
  })
  .openapi('InboxSessionRequest');

const SeverityCounts = z.object(Object.fromEntries(SEVERITIES.map((s) => [s, z.number()])) as Record<(typeof SEVERITIES)[number], z.ZodNumber>);

export const SessionSchema = z
  .object({
    token: z.string(),
    totalUnreadCount: z.number(),
    unreadCount: z.object({ total: z.number(), severity: SeverityCounts }),
    removeNovuBranding: z.boolean(),
    isDevelopmentMode: z.boolean(),
    maxSnoozeDurationHours: z.number(),
    applicationIdentifier: z.string(),
    contextKeys: z.array(z.string()),
  })
  .openapi('InboxSession');

/** The client sends arrays as `tags[]=a&tags[]=b` and `severity[]=high` (or a single `severity=high`). */
export const SubscriberListQuerySchema = InboxListQuerySchema.extend({
  'tags[]': queryArray(z.string()),
  'severity[]': queryArray(z.enum(SEVERITIES)),
});

const OneOrMany = <T extends z.ZodTypeAny>(item: T) => z.union([item, z.array(item)]).transform((v) => (Array.isArray(v) ? v : [v]) as Array<z.infer<T>>);

/** One filter of the client's count request, as it sends it (severity may be a single value). */
export const CountFilterSchema = z.object({
  read: z.boolean().optional(),
  archived: z.boolean().optional(),
  snoozed: z.boolean().optional(),
  seen: z.boolean().optional(),
  tags: TagsSelectorSchema.optional(),
  data: z.record(z.string(), z.unknown()).optional(),
  severity: OneOrMany(z.enum(SEVERITIES)).optional(),
  createdGte: z.number().optional(),
  createdLte: z.number().optional(),
});

export const CountQuerySchema = z.object({
  filters: z.string().openapi({ description: 'A JSON array of filter objects' }),
});

export const ActionBodySchema = z.strictObject({ actionType: z.enum(INBOX_ACTION_TYPES) });

export const NotificationIdParams = z.object({ notificationId: z.string().min(1) });

/** What the bulk calls of @novu/js send: `data` a JSON object in a string, `tags` as the app gave it. */
export const BulkBodySchema = z
  .strictObject({
    notificationIds: z.array(z.string()).optional(),
    tags: TagsSelectorSchema.optional(),
    data: z.string().optional(),
  })
  .openapi('InboxBulkRequest');

/** The switches of one workflow. */
export const ChannelsBodySchema = z.strictObject(ChannelFlagsShape).openapi('InboxChannelSwitches');

/** The global level: channel switches and the delivery schedule (`useSchedule`'s update). */
export const GlobalPreferenceBodySchema = z.strictObject({ ...ChannelFlagsShape, schedule: ScheduleSchema.optional() }).openapi('InboxGlobalPreferenceRequest');

/** Items with `subscriptionIdentifier` change a topic subscription's preference for the workflow (`enabled`, `condition`). */
export const BulkPreferencesBodySchema = z.strictObject({
  preferences: z
    .array(
      ChannelsBodySchema.extend({
        workflowId: z.string().min(1),
        subscriptionIdentifier: z.string().min(1).optional(),
        enabled: z.boolean().optional(),
        condition: z.record(z.string(), z.unknown()).optional(),
      }),
    )
    .min(1)
    .max(100),
});

export const PreferencesQuerySchema = z.object({
  criticality: z.enum(PREFERENCE_CRITICALITIES).default('nonCritical'),
  'tags[]': queryArray(z.string()),
  severity: queryArray(z.enum(SEVERITIES)),
  'severity[]': queryArray(z.enum(SEVERITIES)),
});

export const WorkflowParams = z.object({ workflowId: z.string().min(1) });

const Channels = z.record(z.string(), z.boolean());
export const PreferenceSchema = z
  .object({
    level: z.enum(['global', 'template']),
    enabled: z.boolean(),
    channels: Channels,
    schedule: ScheduleSchema.optional(),
    overrides: z.array(z.object({ channel: z.string(), source: z.string() })).optional(),
    workflow: z
      .object({ id: z.string(), identifier: z.string(), name: z.string(), critical: z.boolean(), tags: z.array(z.string()), severity: z.enum(SEVERITIES) })
      .optional(),
  })
  .openapi('InboxPreference');
