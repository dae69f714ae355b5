import { GetSubscriberPreferences, UpdateSubscriberPreferences } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { channelFlags } from './channel-flags';
import { presentPreferences } from './preferences.presenter';
import * as routes from './preferences.routes';

export function preferencesRouter(resolve: Resolver) {
  const getPreferences = resolve.get(GetSubscriberPreferences);
  const updatePreferences = resolve.get(UpdateSubscriberPreferences);

  return createRouter()
    .openapi(routes.retrieve, async (c) => {
      const view = await getPreferences.execute(c.get('caller').environmentId, c.req.valid('param').subscriberId, c.req.valid('query').criticality);
      return c.json({ data: presentPreferences(view) }, 200);
    })
    .openapi(routes.patch, async (c) => {
      const { channels = {}, workflowId, schedule } = c.req.valid('json');
      const view = await updatePreferences.execute({
        environmentId: c.get('caller').environmentId,
        subscriberId: c.req.valid('param').subscriberId,
        workflowId,
        channels: channelFlags(channels),
        schedule,
      });
      return c.json({ data: presentPreferences(view) }, 200);
    });
}
