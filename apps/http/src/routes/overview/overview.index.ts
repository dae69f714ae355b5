import { GetOverview, type OverviewBucket } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import type { OverviewSchema } from './overview.schemas';
import * as routes from './overview.routes';

type BucketOut = z.infer<typeof OverviewSchema>['hourly'][number];

function presentBucket(b: OverviewBucket): BucketOut {
  return { ...b, start: b.start.toISOString(), deliveries: b.deliveries as BucketOut['deliveries'] };
}

/** The Overview charts' data: an aggregate of the API, for a dashboard session or an API key alike. */
export function overviewRouter(resolve: Resolver) {
  const getOverview = resolve.get(GetOverview);
  return createRouter().openapi(routes.overview, async (c) => {
    const o = await getOverview.execute(c.get('caller').environmentId);
    return c.json({ data: { generatedAt: o.generatedAt.toISOString(), hourly: o.hourly.map(presentBucket), daily: o.daily.map(presentBucket) } }, 200);
  });
}
