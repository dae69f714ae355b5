import { DeleteTopic, GetTopic, SearchTopics, UpdateTopic, UpsertTopic } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import { presentTopic, presentTopicSummary } from './topics.presenter';
import * as routes from './topics.routes';

export function topicsRouter(resolve: Resolver) {
  const upsertTopic = resolve.get(UpsertTopic);
  const getTopic = resolve.get(GetTopic);
  const searchTopics = resolve.get(SearchTopics);
  const updateTopic = resolve.get(UpdateTopic);
  const deleteTopic = resolve.get(DeleteTopic);

  return createRouter()
    .openapi(routes.upsert, async (c) => {
      const { failIfExists = false } = c.req.valid('query');
      // `data` is known to @novu/api; Herald keeps no topic data.
      const { data: _, ...fields } = c.req.valid('json');
      const { topic } = await upsertTopic.execute({ environmentId: c.get('caller').environmentId, topic: fields, failIfExists });
      return c.json({ data: presentTopicSummary(topic) }, 201);
    })
    .openapi(routes.search, async (c) => {
      const { key, name, ...page } = c.req.valid('query');
      const result = await searchTopics.execute(c.get('caller').environmentId, { key, name }, toCursorQuery(page));
      return c.json({ ...result, data: result.data.map(presentTopic) }, 200);
    })
    .openapi(routes.retrieve, async (c) => {
      const topic = await getTopic.execute(c.get('caller').environmentId, c.req.valid('param').topicKey);
      return c.json({ data: presentTopic(topic) }, 200);
    })
    .openapi(routes.update, async (c) => {
      const { data: _, ...changes } = c.req.valid('json');
      const topic = await updateTopic.execute(c.get('caller').environmentId, c.req.valid('param').topicKey, changes);
      return c.json({ data: presentTopicSummary(topic) }, 200);
    })
    .openapi(routes.remove, async (c) => {
      await deleteTopic.execute(c.get('caller').environmentId, c.req.valid('param').topicKey);
      return c.json({ data: { acknowledged: true } }, 200);
    });
}
