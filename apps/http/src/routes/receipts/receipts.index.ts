import { ApplyDeliveryReceipts } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { errorBody } from '../../platform/errors';
import { RequestOrigins, requestFacts } from '../../platform/request-origin';
import { createRouter } from '../../platform/router';
import * as routes from './receipts.routes';

/**
 * The public route providers call with delivery receipts. Mounted before the API-key guard: the
 * provider's signature (or Postmark's basic auth) is what authorises a call, checked by the use case.
 */
export function receiptsRouter(resolve: Resolver) {
  const apply = resolve.get(ApplyDeliveryReceipts);
  const origins = resolve.get(RequestOrigins);
  return createRouter().openapi(routes.receive, async (c) => {
    const { integrationId } = c.req.valid('param');
    const facts = requestFacts(c);
    const incoming = new URL(facts.url);
    // Twilio signs the URL it called: the public origin when a proxy stands in front.
    const url = origins.ownOrigin(facts) + incoming.pathname + incoming.search;
    const headers: Record<string, string> = {};
    c.req.raw.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const result = await apply.execute({ integrationId, request: { url, headers, body: await c.req.text() } });
    if (result.outcome === 'unknown_integration') return c.json(errorBody(c, 404, 'No integration with this id takes delivery receipts', { code: 'INTEGRATION_NOT_FOUND' }), 404);
    if (result.outcome === 'rejected') return c.json(errorBody(c, 401, `Receipt refused: ${result.reason}`, { code: 'RECEIPT_NOT_VERIFIED' }), 401);
    return c.json({ data: result.counts }, 200);
  });
}
