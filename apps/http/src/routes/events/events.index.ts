import { DomainError, TriggerEvent, type TriggerEventInput } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { boundedValue, errorBody } from '../../platform/errors';
import { createRouter } from '../../platform/router';
import * as routes from './events.routes';

export function eventsRouter(resolve: Resolver) {
  const triggerEvent = resolve.get(TriggerEvent);

  return createRouter().openapi(routes.trigger, async (c) => {
    // Known to the clients, used by no step Herald runs.
    const { bridgeUrl: _, controls: __, agentId: ___, ...body } = c.req.valid('json');
    try {
      const result = await triggerEvent.execute({ ...(body as Omit<TriggerEventInput, 'environmentId'>), environmentId: c.get('caller').environmentId });
      return c.json({ data: result }, 201);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'PAYLOAD_INVALID') throw error;
      // The payload-validation shape existing SDKs parse: a list of {field, message, value}.
      const errors = Object.entries(error.fields ?? {}).map(([field, e]) => ({ field, message: e.messages.join('; '), value: boundedValue(e.value) }));
      return c.json({ ...errorBody(c, 400, error.message, { code: error.code }), type: 'PAYLOAD_VALIDATION_ERROR', errors }, 400) as never;
    }
  });
}
