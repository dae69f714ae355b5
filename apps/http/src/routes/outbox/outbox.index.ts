import { ListOutbox } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { toCursorQuery } from '../../platform/schemas';
import * as routes from './outbox.routes';

export function outboxRouter(resolve: Resolver) {
  const listOutbox = resolve.get(ListOutbox);
  return createRouter().openapi(routes.list, async (c) => {
    const { channel, to, transactionId, subscriberId, ...page } = c.req.valid('query');
    const result = await listOutbox.execute({
      environmentId: c.get('caller').environmentId,
      channel,
      to,
      transactionId,
      subscriberId,
      page: toCursorQuery(page),
    });
    const data = result.data.map(({ id, createdAt, channel: ch, ...message }) => ({
      _id: id,
      ...message,
      channel: ch as 'email' | 'sms',
      createdAt: createdAt.toISOString(),
    }));
    return c.json({ ...result, data }, 200);
  });
}
