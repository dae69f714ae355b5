import { createRoute, z } from '@hono/zod-openapi';
import type { SelectAllForms } from '@herald/domain';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import { InboxNotificationSchema, InboxPageSchema, SnoozeBodySchema } from '../inbox/inbox.schemas';
import { SubscriptionPreferenceSchema } from '../topics/topics.schemas';
import {
  ActionBodySchema,
  BulkBodySchema,
  BulkPreferencesBodySchema,
  ChannelsBodySchema,
  CountQuerySchema,
  GlobalPreferenceBodySchema,
  NotificationIdParams,
  PreferenceSchema,
  PreferencesQuerySchema,
  SessionBodySchema,
  SessionSchema,
  SubscriberListQuerySchema,
  WorkflowParams,
} from './subscriber-inbox.schemas';

const tags = ['Subscriber inbox'];
const security = [{ SubscriberToken: [] }];
const BASE = '/v1/inbox/notifications';
const NotificationEnvelope = jsonContent(dataEnvelope(InboxNotificationSchema), 'The notification');
const PreferenceEnvelope = jsonContent(dataEnvelope(PreferenceSchema), 'The preference');

export const session = createRoute({
  method: 'post',
  path: '/v1/inbox/session',
  tags,
  security: [],
  summary: 'Start a subscriber session from the browser (public application identifier; subscriberHash required where the environment asks, as Production does by default)',
  request: jsonBody(SessionBodySchema),
  responses: { 201: jsonContent(dataEnvelope(SessionSchema), 'The session and its subscriber token'), ...errorResponses },
});

export const list = createRoute({
  method: 'get',
  path: BASE,
  tags,
  security,
  summary: "The session subscriber's notifications, newest first",
  request: { query: SubscriberListQuerySchema },
  responses: { 200: jsonContent(InboxPageSchema, 'A page of notifications'), ...errorResponses },
});

export const count = createRoute({
  method: 'get',
  path: `${BASE}/count`,
  tags,
  security,
  summary: 'Count notifications matching each filter',
  request: { query: CountQuerySchema },
  responses: { 200: jsonContent(dataEnvelope(z.array(z.object({ count: z.number(), filter: z.record(z.string(), z.unknown()) }))), 'One count per filter'), ...errorResponses },
});

/** Changes of one notification without a body, by their path suffix. */
export const STATE_CHANGES = ['read', 'unread', 'seen', 'archive', 'unarchive', 'unsnooze'] as const;

export const changeState = (suffix: (typeof STATE_CHANGES)[number]) =>
  createRoute({
    method: 'patch',
    path: `${BASE}/{notificationId}/${suffix}`,
    tags,
    security,
    summary: `Mark a notification ${suffix}`,
    request: { params: NotificationIdParams },
    responses: { 200: NotificationEnvelope, ...errorResponses },
  });

export const snooze = createRoute({
  method: 'patch',
  path: `${BASE}/{notificationId}/snooze`,
  tags,
  security,
  summary: 'Snooze a notification',
  request: { params: NotificationIdParams, ...jsonBody(SnoozeBodySchema) },
  responses: { 200: NotificationEnvelope, ...errorResponses },
});

export const action = (suffix: 'complete' | 'revert') =>
  createRoute({
    method: 'patch',
    path: `${BASE}/{notificationId}/${suffix}`,
    tags,
    security,
    summary: `${suffix === 'complete' ? 'Complete' : 'Revert'} the primary or secondary action of a notification`,
    request: { params: NotificationIdParams, ...jsonBody(ActionBodySchema) },
    responses: { 200: NotificationEnvelope, ...errorResponses },
  });

export const remove = createRoute({
  method: 'delete',
  path: `${BASE}/{notificationId}/delete`,
  tags,
  security,
  summary: 'Delete a notification',
  request: { params: NotificationIdParams },
  responses: { 204: { description: 'Deleted' }, ...errorResponses },
});

/** Bulk operations by path suffix. */
export const BULK = { read: 'read', seen: 'seen', archive: 'archive', 'read-archive': 'archive-read', delete: 'delete' } as const;

/**
 * The empty bodies each bulk route reads as "all": `{}` from @novu/js's readAll(), archiveAll(),
 * archiveAllRead(), deleteAll() and seenAll() without a filter; `{"tags":[]}` only where the Inbox's
 * own menu sends it (read all, archive all, archive read, from a tab without tags).
 */
export const SELECT_ALL: Record<keyof typeof BULK, SelectAllForms> = {
  read: { empty: true, emptyTagList: true },
  archive: { empty: true, emptyTagList: true },
  'read-archive': { empty: true, emptyTagList: true },
  seen: { empty: true, emptyTagList: false },
  delete: { empty: true, emptyTagList: false },
};

export const bulk = (suffix: keyof typeof BULK) =>
  createRoute({
    method: 'post',
    path: `${BASE}/${suffix}`,
    tags,
    security,
    summary: `Bulk ${suffix} of the selected notifications (all of them only for {}${SELECT_ALL[suffix].emptyTagList ? ' or {"tags":[]}' : ''})`,
    request: jsonBody(BulkBodySchema, false),
    responses: { 204: { description: 'Done' }, ...errorResponses },
  });

export const preferences = createRoute({
  method: 'get',
  path: '/v1/inbox/preferences',
  tags,
  security,
  summary: 'The global preference, then one per workflow',
  request: { query: PreferencesQuerySchema },
  responses: { 200: jsonContent(dataEnvelope(z.array(PreferenceSchema)), 'Preferences'), ...errorResponses },
});

export const globalPreference = createRoute({
  method: 'get',
  path: '/v1/inbox/preferences/global',
  tags,
  security,
  summary: 'The global preference',
  responses: { 200: PreferenceEnvelope, ...errorResponses },
});

export const updateGlobal = createRoute({
  method: 'patch',
  path: '/v1/inbox/preferences',
  tags,
  security,
  summary: 'Switch channels on or off globally; set the delivery schedule',
  request: jsonBody(GlobalPreferenceBodySchema),
  responses: { 200: PreferenceEnvelope, ...errorResponses },
});

export const bulkUpdate = createRoute({
  method: 'patch',
  path: '/v1/inbox/preferences/bulk',
  tags,
  security,
  summary: 'Switch channels of several workflows',
  request: jsonBody(BulkPreferencesBodySchema),
  responses: { 200: jsonContent(dataEnvelope(z.array(z.union([PreferenceSchema, SubscriptionPreferenceSchema]))), 'The updated preferences'), ...errorResponses },
});

export const updateWorkflow = createRoute({
  method: 'patch',
  path: '/v1/inbox/preferences/{workflowId}',
  tags,
  security,
  summary: 'Switch channels of one workflow',
  request: { params: WorkflowParams, ...jsonBody(ChannelsBodySchema) },
  responses: { 200: PreferenceEnvelope, ...errorResponses },
});

/** What the client posts in keyless mode (its hello-world demo event). */
const KeylessEventSchema = z.object({ name: z.string(), to: z.unknown(), payload: z.record(z.string(), z.unknown()).optional() }).strict();

export const keylessEvent = createRoute({
  method: 'post',
  path: '/v1/inbox/events',
  tags,
  security,
  summary: 'The keyless demo trigger: refused, Herald environments are never keyless (trigger with an API key)',
  request: jsonBody(KeylessEventSchema),
  responses: { ...errorResponses },
});
