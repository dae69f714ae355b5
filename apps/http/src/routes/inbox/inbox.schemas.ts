import { z } from '@hono/zod-openapi';
import { CHANNEL_TYPES, SEVERITIES } from '@herald/domain';
import { queryArray, queryBoolean } from '../../platform/schemas';

const JsonObject = z.record(z.string(), z.unknown());

/** A JSON object passed as a string (query parameters and the SDK's bulk bodies carry `data` this way). */
const jsonObjectString = z.string().transform((s, ctx) => {
  try {
    const parsed: unknown = JSON.parse(s);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // reported below
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON object' });
  return z.NEVER;
});

/** Milliseconds since the epoch, or an ISO 8601 timestamp. */
const queryTime = z.union([z.coerce.number().int().min(0), z.iso.datetime({ offset: true })]).transform((v) => new Date(v));

export const NotificationRefParams = z.object({ subscriberId: z.string().min(1), notificationId: z.string().min(1) });
export const ContextQuery = z.strictObject({ contextKeys: queryArray(z.string()) });

const TagOrGroup = z.strictObject({ or: z.array(z.string()) });

/** A tag filter in every form the official clients send (see TagsSelector). */
export const TagsSelectorSchema = z
  .union([z.array(z.string()), TagOrGroup, z.strictObject({ and: z.array(z.union([z.string(), TagOrGroup])) })], {
    error: 'must be a list of tags, {"or": [tags]} (any of them) or {"and": [tag or {"or": [tags]}]} (each must match)',
  })
  .openapi('TagsFilter', { example: { and: [{ or: ['billing', 'invoices'] }, 'urgent'] } });

export const InboxListQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(10),
  after: z.string().optional().openapi({ description: 'Id of the last notification of the previous page' }),
  offset: z.coerce.number().int().min(0).default(0),
  read: queryBoolean.optional(),
  archived: queryBoolean.optional(),
  snoozed: queryBoolean.optional(),
  seen: queryBoolean.optional(),
  data: jsonObjectString.optional(),
  severity: queryArray(z.enum(SEVERITIES)),
  tags: queryArray(z.string()),
  createdGte: queryTime.optional(),
  createdLte: queryTime.optional(),
  contextKeys: queryArray(z.string()),
});

/** One entry of the count endpoint's `filters` (a JSON array in the query string). */
const CountFilterSchema = z.object({
  read: z.boolean().optional(),
  archived: z.boolean().optional(),
  snoozed: z.boolean().optional(),
  seen: z.boolean().optional(),
  tags: TagsSelectorSchema.optional(),
  data: z.union([JsonObject, jsonObjectString]).optional(),
  severity: z.array(z.enum(SEVERITIES)).optional(),
  contextKeys: z.array(z.string()).optional(),
  createdGte: z.number().optional(),
  createdLte: z.number().optional(),
});

export const CountQuerySchema = z.object({
  filters: z.string().transform((s, ctx) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(s);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'must be a JSON array of filter objects' });
      return z.NEVER;
    }
    const result = z.array(CountFilterSchema).safeParse(Array.isArray(parsed) ? parsed : [parsed]);
    if (!result.success) {
      ctx.addIssue({ code: 'custom', message: `invalid filter: ${result.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}` });
      return z.NEVER;
    }
    return result.data;
  }),
});

/**
 * Which notifications a bulk operation touches, exactly (see resolveInboxSelection). @novu/api sends
 * any `tags` as `{}` (its schema keeps no key of it): refused, since it cannot say which tags.
 */
export const BulkBodySchema = z
  .strictObject({
    notificationIds: z.array(z.string()).optional(),
    tags: TagsSelectorSchema.optional(),
    data: z.union([JsonObject, jsonObjectString]).optional(),
    contextKeys: z.array(z.string()).optional(),
  })
  .openapi('InboxBulkSelection');

export const SnoozeBodySchema = z.strictObject({ snoozeUntil: z.iso.datetime({ offset: true }).transform((s) => new Date(s)) });

const RedirectSchema = z.object({ url: z.string(), target: z.string().optional() });
const ActionSchema = z.object({ label: z.string(), isCompleted: z.boolean(), redirect: RedirectSchema.optional() });

export const InboxNotificationSchema = z
  .object({
    id: z.string(),
    transactionId: z.string(),
    subject: z.string().optional(),
    body: z.string(),
    to: z.object({
      id: z.string(),
      subscriberId: z.string(),
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      avatar: z.string().optional(),
    }),
    isRead: z.boolean(),
    isSeen: z.boolean(),
    isArchived: z.boolean(),
    isSnoozed: z.boolean(),
    snoozedUntil: z.string().nullable(),
    readAt: z.string().nullable(),
    firstSeenAt: z.string().nullable(),
    archivedAt: z.string().nullable(),
    deliveredAt: z.array(z.string()),
    createdAt: z.string(),
    avatar: z.string().optional(),
    primaryAction: ActionSchema.optional(),
    secondaryAction: ActionSchema.optional(),
    channelType: z.enum(CHANNEL_TYPES),
    tags: z.array(z.string()),
    data: JsonObject.optional(),
    redirect: RedirectSchema.optional(),
    workflow: z
      .object({
        id: z.string(),
        identifier: z.string(),
        name: z.string(),
        critical: z.boolean(),
        tags: z.array(z.string()).optional(),
        data: JsonObject.optional(),
        severity: z.enum(SEVERITIES),
      })
      .optional(),
    severity: z.enum(SEVERITIES),
  })
  .openapi('InboxNotification');

export const InboxPageSchema = z
  .object({ data: z.array(InboxNotificationSchema), hasMore: z.boolean(), filter: JsonObject })
  .openapi('InboxNotificationPage');

export const CountResultSchema = z.array(z.object({ count: z.number(), filter: JsonObject }));
