import { createRoute, z } from '@hono/zod-openapi';
import { INBOX_ACTION_TYPES } from '@herald/domain';
import { dataEnvelope, errorResponses, jsonBody, jsonContent } from '../../platform/schemas';
import {
  BulkBodySchema,
  ContextQuery,
  CountQuerySchema,
  CountResultSchema,
  InboxListQuerySchema,
  InboxNotificationSchema,
  InboxPageSchema,
  NotificationRefParams,
  SnoozeBodySchema,
} from './inbox.schemas';

const tags = ['Inbox'];
const BASE = '/v2/subscribers/{subscriberId}/notifications';
const SubscriberParam = z.object({ subscriberId: z.string().min(1) });
const NotificationEnvelope = jsonContent(dataEnvelope(InboxNotificationSchema), 'The notification');

export const list = createRoute({
  method: 'get',
  path: BASE,
  tags,
  summary: "List a subscriber's in-app notifications, newest first",
  request: { params: SubscriberParam, query: InboxListQuerySchema },
  responses: { 200: jsonContent(InboxPageSchema, 'A page of notifications'), ...errorResponses },
});

export const count = createRoute({
  method: 'get',
  path: `${BASE}/count`,
  tags,
  summary: 'Count notifications matching each of up to 30 filters',
  request: { params: SubscriberParam, query: CountQuerySchema },
  responses: { 200: jsonContent(dataEnvelope(CountResultSchema), 'One count per filter'), ...errorResponses },
});

/** The single-notification state changes without a body, by their path suffix. */
const STATE_SUMMARY = {
  read: 'Mark a notification read (and seen)',
  unread: 'Mark a notification unread',
  archive: 'Archive a notification (and mark it read)',
  unarchive: 'Unarchive a notification',
  unsnooze: 'End the snooze of a notification',
} as const;
export type StateChange = keyof typeof STATE_SUMMARY;
export const STATE_CHANGES = Object.keys(STATE_SUMMARY) as StateChange[];

export const changeState = (suffix: StateChange) =>
  createRoute({
    method: 'patch',
    path: `${BASE}/{notificationId}/${suffix}`,
    tags,
    summary: STATE_SUMMARY[suffix],
    request: { params: NotificationRefParams, query: ContextQuery },
    responses: { 200: NotificationEnvelope, ...errorResponses },
  });

export const snooze = createRoute({
  method: 'patch',
  path: `${BASE}/{notificationId}/snooze`,
  tags,
  summary: 'Snooze a notification until a time in the future',
  request: { params: NotificationRefParams, query: ContextQuery, ...jsonBody(SnoozeBodySchema) },
  responses: { 200: NotificationEnvelope, ...errorResponses },
});

const ActionParams = NotificationRefParams.extend({ actionType: z.enum(INBOX_ACTION_TYPES) });

export const completeAction = createRoute({
  method: 'patch',
  path: `${BASE}/{notificationId}/actions/{actionType}/complete`,
  tags,
  summary: 'Mark the primary or secondary action of a notification completed',
  request: { params: ActionParams, query: ContextQuery },
  responses: { 200: NotificationEnvelope, ...errorResponses },
});

export const revertAction = createRoute({
  method: 'patch',
  path: `${BASE}/{notificationId}/actions/{actionType}/revert`,
  tags,
  summary: 'Mark the primary or secondary action of a notification not completed',
  request: { params: ActionParams, query: ContextQuery },
  responses: { 200: NotificationEnvelope, ...errorResponses },
});

export const remove = createRoute({
  method: 'delete',
  path: `${BASE}/{notificationId}`,
  tags,
  summary: 'Delete a notification',
  request: { params: NotificationRefParams, query: ContextQuery },
  responses: { 204: { description: 'Deleted' }, ...errorResponses },
});

/** Bulk operations by their path suffix: read (all), seen, archive (all), read-archive, delete (all). */
export const BULK_OPERATIONS = { read: 'read', seen: 'seen', archive: 'archive', 'read-archive': 'archive-read', delete: 'delete' } as const;

export const bulk = (suffix: keyof typeof BULK_OPERATIONS) =>
  createRoute({
    method: 'post',
    path: `${BASE}/${suffix}`,
    tags,
    summary: `Bulk ${suffix} of the selected notifications (all when nothing is selected)`,
    request: { params: SubscriberParam, ...jsonBody(BulkBodySchema, false) },
    responses: { 204: { description: 'Done' }, ...errorResponses },
  });
