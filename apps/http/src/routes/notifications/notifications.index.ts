import { GetActivityNotification, ListActivity, ProviderCatalogue } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { presentActivityNotification } from './notifications.presenter';
import * as routes from './notifications.routes';

/** The activity log (spec operations 21 and 22). */
export function notificationsRouter(resolve: Resolver) {
  const listActivity = resolve.get(ListActivity);
  const getNotification = resolve.get(GetActivityNotification);
  const { serviceName } = resolve.get<ProviderCatalogue>(ProviderCatalogue);

  return createRouter()
    .openapi(routes.list, async (c) => {
      const caller = c.get('caller');
      const { page, limit, ...filter } = c.req.valid('query');
      const result = await listActivity.execute({ environmentId: caller.environmentId, filter, page, limit });
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
    });
}
