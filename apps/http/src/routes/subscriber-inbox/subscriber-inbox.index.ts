import {
  ApplyDefaultSchedule,
  AuthenticateSubscriberToken,
  ChangeInboxNotification,
  ChangeInboxNotifications,
  CompleteInboxAction,
  CountInboxNotifications,
  DeleteInboxNotification,
  DomainError,
  GetSubscriberPreferences,
  InboxFeed,
  InboxSubscriptions,
  ListInboxNotifications,
  parseDefaultSchedule,
  StartInboxSession,
  UpdateSubscriberPreferences,
  type InboxFilter,
  type SubscriberClaims,
} from '@herald/domain';
import type { Context } from 'hono';
import type { AppEnv, Resolver } from '../../platform/app-env';
import { InboxOrigins, inboxCors } from '../../platform/inbox-cors';
import { createRouter } from '../../platform/router';
import { presentFilter } from '../inbox/inbox-filter';
import { presentInboxNotification } from '../inbox/inbox.presenter';
import { channelFlags } from '../preferences/channel-flags';
import { parseCountFilters, parseBulkData, tagGroupsFromQuery } from './subscriber-inbox.input';
import { findWorkflowPreference, presentGlobalPreference, presentPreferenceList, presentSession, presentWorkflowPreference } from './subscriber-inbox.presenter';
import { inboxCaller, preferenceChange } from '../inbox-topics/inbox-topics.index';
import { presentSubscriptionPreference } from '../topics/topics.presenter';
import * as routes from './subscriber-inbox.routes';

const SESSION_PATH = '/v1/inbox/session';

/**
 * The browser-facing inbox that `@novu/js` calls: a session from the public application identifier,
 * then every call authorised by the subscriber token and scoped to that subscriber.
 */
export function subscriberInboxRouter(resolve: Resolver) {
  const startSession = resolve.get(StartInboxSession);
  const authenticate = resolve.get(AuthenticateSubscriberToken);
  const origins = resolve.get(InboxOrigins);
  const feed = resolve.get<InboxFeed>(InboxFeed);
  const listInbox = resolve.get(ListInboxNotifications);
  const countInbox = resolve.get(CountInboxNotifications);
  const changeOne = resolve.get(ChangeInboxNotification);
  const deleteOne = resolve.get(DeleteInboxNotification);
  const changeMany = resolve.get(ChangeInboxNotifications);
  const completeAction = resolve.get(CompleteInboxAction);
  const getPreferences = resolve.get(GetSubscriberPreferences);
  const updatePreferences = resolve.get(UpdateSubscriberPreferences);
  const applyDefaultSchedule = resolve.get(ApplyDefaultSchedule);
  const subscriptions = resolve.get(InboxSubscriptions);

  const me = (c: Context<AppEnv>) => c.get('subscriber');
  const ref = (c: Context<AppEnv>, notificationId: string) => ({ environmentId: me(c).environmentId, subscriberId: me(c).subscriberId, notificationId });
  /** Connected clients of this subscriber, on any process, hear that their counts may have changed. */
  const changed = (claims: SubscriberClaims) => feed.publish([{ environmentId: claims.environmentId, subscriberRef: claims.subscriberRef, jobIds: [] }]);

  const router = createRouter();
  router.use('/v1/inbox/*', inboxCors(origins));
  router.use('/v1/inbox/*', async (c, next) => {
    if (c.req.path === SESSION_PATH) return next();
    const claims = await authenticate.execute(c.req.header('authorization'));
    await origins.check(claims.environmentId, c.get('crossOrigin'));
    c.set('subscriber', claims);
    return next();
  });

  router
    .openapi(routes.session, async (c) => {
      const body = c.req.valid('json');
      const { subscriberId, ...profile } = body.subscriber;
      const defaultSchedule = body.defaultSchedule === undefined ? undefined : parseDefaultSchedule(body.defaultSchedule);
      // The origin is checked by the use case before it writes anything (the preflight alone does not stop a POST).
      const session = await startSession.execute({
        applicationIdentifier: body.applicationIdentifier,
        subscriberId,
        subscriberHash: body.subscriberHash,
        origin: c.get('crossOrigin'),
        subscriber: {
          firstName: profile.firstName ?? undefined,
          lastName: profile.lastName ?? undefined,
          email: profile.email ?? undefined,
          phone: profile.phone ?? undefined,
          avatar: profile.avatar ?? undefined,
          locale: profile.locale ?? undefined,
          timezone: profile.timezone ?? undefined,
          data: profile.data ?? undefined,
        },
      });
      // Like the profile, only a verified session may choose it: the public identifier alone could hold back someone's email.
      if (defaultSchedule && session.verified) await applyDefaultSchedule.execute(session.environment.id, subscriberId, defaultSchedule);
      return c.json({ data: presentSession(session) }, 201);
    })
    .openapi(routes.list, async (c) => {
      const { limit, after, offset, tags: _, 'tags[]': __, 'severity[]': bracketSeverity, ...filter } = c.req.valid('query');
      const merged: InboxFilter = { ...filter, tags: tagGroupsFromQuery(c.req.queries()), severity: bracketSeverity ?? filter.severity };
      const result = await listInbox.execute({ environmentId: me(c).environmentId, subscriberId: me(c).subscriberId, filter: merged, limit, after, offset });
      return c.json({ data: result.notifications.map(presentInboxNotification), hasMore: result.hasMore, filter: presentFilter(merged) }, 200);
    })
    .openapi(routes.count, async (c) => {
      const { raw, filters } = parseCountFilters(c.req.valid('query').filters);
      const counts = await countInbox.execute(me(c).environmentId, me(c).subscriberId, filters);
      return c.json({ data: counts.map((r, i) => ({ count: r.count, filter: raw[i] })) }, 200);
    })
    .openapi(routes.snooze, async (c) => {
      const notification = await changeOne.execute(ref(c, c.req.valid('param').notificationId), { kind: 'snooze', until: c.req.valid('json').snoozeUntil });
      changed(me(c));
      return c.json({ data: presentInboxNotification(notification) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteOne.execute(ref(c, c.req.valid('param').notificationId));
      changed(me(c));
      return c.body(null, 204);
    });
  for (const suffix of routes.STATE_CHANGES) {
    router.openapi(routes.changeState(suffix), async (c) => {
      const notification = await changeOne.execute(ref(c, c.req.valid('param').notificationId), { kind: suffix });
      changed(me(c));
      return c.json({ data: presentInboxNotification(notification) }, 200);
    });
  }
  for (const suffix of ['complete', 'revert'] as const) {
    router.openapi(routes.action(suffix), async (c) => {
      const target = ref(c, c.req.valid('param').notificationId);
      const notification = await completeAction.execute(target, c.req.valid('json').actionType, suffix === 'complete');
      return c.json({ data: presentInboxNotification(notification) }, 200);
    });
  }
  for (const [suffix, operation] of Object.entries(routes.BULK) as Array<[keyof typeof routes.BULK, (typeof routes.BULK)[keyof typeof routes.BULK]]>) {
    router.openapi(routes.bulk(suffix), async (c) => {
      const { data, ...selector } = c.req.valid('json') ?? {};
      await changeMany.execute({
        environmentId: me(c).environmentId,
        subscriberId: me(c).subscriberId,
        operation,
        selector: { ...selector, data: parseBulkData(data) },
        selectAll: routes.SELECT_ALL[suffix],
      });
      changed(me(c));
      return c.body(null, 204);
    });
  }

  router
    .openapi(routes.preferences, async (c) => {
      const q = c.req.valid('query');
      const view = await getPreferences.execute(me(c).environmentId, me(c).subscriberId, q.criticality);
      return c.json({ data: presentPreferenceList(view, q['tags[]'] ?? [], q['severity[]'] ?? q.severity ?? []) }, 200);
    })
    .openapi(routes.globalPreference, async (c) => {
      const view = await getPreferences.execute(me(c).environmentId, me(c).subscriberId, 'all');
      return c.json({ data: presentGlobalPreference(view) }, 200);
    })
    .openapi(routes.updateGlobal, async (c) => {
      const { schedule, ...channels } = c.req.valid('json');
      const view = await updatePreferences.execute({ environmentId: me(c).environmentId, subscriberId: me(c).subscriberId, channels: channelFlags(channels), schedule });
      return c.json({ data: presentGlobalPreference(view) }, 200);
    })
    .openapi(routes.bulkUpdate, async (c) => {
      const updated = [];
      for (const [i, { workflowId, subscriptionIdentifier, enabled, condition, ...channels }] of c.req.valid('json').preferences.entries()) {
        if (!subscriptionIdentifier && (enabled !== undefined || condition !== undefined)) {
          throw DomainError.field(`preferences[${i}].${enabled !== undefined ? 'enabled' : 'condition'}`, 'applies to a topic subscription: give its subscriptionIdentifier');
        }
        if (subscriptionIdentifier) {
          const change = preferenceChange({ ...channels, enabled, condition });
          const applied = await subscriptions.setWorkflowPreference(inboxCaller(c), subscriptionIdentifier, workflowId, change);
          updated.push(presentSubscriptionPreference(applied.subscriptionId, applied));
        } else updated.push(await updateWorkflowPreference(me(c), workflowId, channelFlags(channels)));
      }
      return c.json({ data: updated }, 200);
    })
    .openapi(routes.updateWorkflow, async (c) => {
      return c.json({ data: await updateWorkflowPreference(me(c), c.req.valid('param').workflowId, channelFlags(c.req.valid('json'))) }, 200);
    });

  router.openapi(routes.keylessEvent, async () => {
    throw new DomainError('FORBIDDEN', 'Herald environments are never keyless: trigger workflows with an API key (POST /v1/events/trigger)');
  });

  async function updateWorkflowPreference(claims: SubscriberClaims, workflowId: string, channels: Record<string, boolean>) {
    const { environmentId, subscriberId } = claims;
    await updatePreferences.execute({ environmentId, subscriberId, workflowId, channels });
    // Read back with every criticality: a critical workflow is left out of the default view.
    const entry = findWorkflowPreference(await getPreferences.execute(environmentId, subscriberId, 'all'), workflowId);
    if (!entry) throw DomainError.notFound('WORKFLOW_NOT_FOUND', 'Workflow', workflowId);
    return presentWorkflowPreference(entry);
  }

  return router;
}
