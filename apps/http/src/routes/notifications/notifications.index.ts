import { GetActivityNotification, GetTriggerProgress, ListActivity, ProviderCatalogue } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentActivityNotification } from './notifications.presenter';
import * as routes from './notifications.routes';

/** The activity log (spec operations 21 and 22), and a notification's trigger with its fan-out's progress. */
export function notificationsRouter(resolve: Resolver) {
  const listActivity = resolve.get(ListActivity);
  const getNotification = resolve.get(GetActivityNotification);
  const getProgress = resolve.get(GetTriggerProgress);
  const { serviceName } = resolve.get<ProviderCatalogue>(ProviderCatalogue);

  return createRouter()
    .openapi(routes.list, async (c) => {
      const caller = c.get('caller');
      const { page, limit, status, ...filter } = c.req.valid('query');
      const result = await listActivity.execute({ environmentId: caller.environmentId, filter: { ...filter, statuses: status }, page, limit });
      return c.json(
        {
          hasMore: result.hasMore,
          data: result.notifications.map((n) => presentActivityNotification(n, caller, serviceName)),
          pageSize: result.pageSize,
          page: result.page,
        },
        200,
      );
    })
    .openapi(routes.retrieve, async (c) => {
      const caller = c.get('caller');
      const notification = await getNotification.execute(caller.environmentId, c.req.valid('param').notificationId);
      return c.json({ data: presentActivityNotification(notification, caller, serviceName) }, 200);
    })
    .openapi(routes.progress, async (c) => {
      const p = await getProgress.execute(c.get('caller').environmentId, c.req.valid('param').notificationId);
      return c.json({ data: { ...p, createdAt: p.createdAt.toISOString(), fannedOutAt: p.fannedOutAt?.toISOString() ?? null } }, 200);
    });
}
