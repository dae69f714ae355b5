import {
  ChangeInboxNotification,
  ChangeInboxNotifications,
  CompleteInboxAction,
  CountInboxNotifications,
  DeleteInboxNotification,
  ListInboxNotifications,
  type InboxFilter,
} from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentFilter, tagGroups } from './inbox-filter';
import { presentInboxNotification } from './inbox.presenter';
import * as routes from './inbox.routes';

const toDate = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms));

/** @novu/api sends `{}` for "all"; it cannot send `tags: []` (its schema turns any tags into `{}`). */
const SELECT_ALL = { empty: true, emptyTagList: false };

/** A subscriber's in-app inbox: the reads and state changes a product's notification center needs. */
export function inboxRouter(resolve: Resolver) {
  const listInbox = resolve.get(ListInboxNotifications);
  const countInbox = resolve.get(CountInboxNotifications);
  const changeOne = resolve.get(ChangeInboxNotification);
  const deleteOne = resolve.get(DeleteInboxNotification);
  const changeMany = resolve.get(ChangeInboxNotifications);
  const completeAction = resolve.get(CompleteInboxAction);

  const router = createRouter()
    .openapi(routes.list, async (c) => {
      const { subscriberId } = c.req.valid('param');
      const { limit, after, offset, tags, ...rest } = c.req.valid('query');
      const filter: InboxFilter = { ...rest, tags: tagGroups(tags) };
      const input = { environmentId: c.get('caller').environmentId, subscriberId, filter, limit, after, offset };
      const result = await listInbox.execute(input);
      return c.json({ data: result.notifications.map(presentInboxNotification), hasMore: result.hasMore, filter: presentFilter(filter) }, 200);
    })
    .openapi(routes.count, async (c) => {
      const { subscriberId } = c.req.valid('param');
      const given = c.req.valid('query').filters;
      const filters: InboxFilter[] = given.map((f, i) => ({ ...f, tags: tagGroups(f.tags, `filters.${i}.tags`), createdGte: toDate(f.createdGte), createdLte: toDate(f.createdLte) }));
      const counts = await countInbox.execute(c.get('caller').environmentId, subscriberId, filters);
      return c.json({ data: counts.map((r, i) => ({ count: r.count, filter: given[i] })) }, 200);
    })
    .openapi(routes.snooze, async (c) => {
      const ref = { ...c.req.valid('param'), contextKeys: c.req.valid('query').contextKeys, environmentId: c.get('caller').environmentId };
      const notification = await changeOne.execute(ref, { kind: 'snooze', until: c.req.valid('json').snoozeUntil });
      return c.json({ data: presentInboxNotification(notification) }, 200);
    })
    .openapi(routes.completeAction, async (c) => {
      const { actionType, ...params } = c.req.valid('param');
      const ref = { ...params, contextKeys: c.req.valid('query').contextKeys, environmentId: c.get('caller').environmentId };
      return c.json({ data: presentInboxNotification(await completeAction.execute(ref, actionType, true)) }, 200);
    })
    .openapi(routes.revertAction, async (c) => {
      const { actionType, ...params } = c.req.valid('param');
      const ref = { ...params, contextKeys: c.req.valid('query').contextKeys, environmentId: c.get('caller').environmentId };
      return c.json({ data: presentInboxNotification(await completeAction.execute(ref, actionType, false)) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      const ref = { ...c.req.valid('param'), contextKeys: c.req.valid('query').contextKeys, environmentId: c.get('caller').environmentId };
      await deleteOne.execute(ref);
      return c.body(null, 204);
    });

  for (const suffix of routes.STATE_CHANGES) {
    router.openapi(routes.changeState(suffix), async (c) => {
      const ref = { ...c.req.valid('param'), contextKeys: c.req.valid('query').contextKeys, environmentId: c.get('caller').environmentId };
      const notification = await changeOne.execute(ref, { kind: suffix });
      return c.json({ data: presentInboxNotification(notification) }, 200);
    });
  }
  for (const [suffix, operation] of Object.entries(routes.BULK_OPERATIONS) as Array<[keyof typeof routes.BULK_OPERATIONS, (typeof routes.BULK_OPERATIONS)[keyof typeof routes.BULK_OPERATIONS]]>) {
    router.openapi(routes.bulk(suffix), async (c) => {
      await changeMany.execute({
        environmentId: c.get('caller').environmentId,
        subscriberId: c.req.valid('param').subscriberId,
        operation,
        selector: c.req.valid('json') ?? {},
        selectAll: SELECT_ALL,
      });
      return c.body(null, 204);
    });
  }
  return router;
}
