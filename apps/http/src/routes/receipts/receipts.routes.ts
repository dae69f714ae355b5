import { createRoute, z } from '@hono/zod-openapi';
import { errorResponse, errorResponses, jsonContent } from '../../platform/schemas';
import { PROVIDER_DEFINED_BODY } from '../../platform/strict-request';

/** SendGrid batches events up to 768 KB; a megabyte leaves room and still bounds what a stranger can send. */
export const MAX_RECEIPT_BYTES = 1024 * 1024;

const ReceiptResultSchema = z
  .object({
    data: z.object({
      applied: z.number().int().openapi({ description: 'Receipts that changed a message (status and an execution detail)' }),
      duplicate: z.number().int().openapi({ description: 'Receipts applied before: nothing changed' }),
      unmatched: z.number().int().openapi({ description: 'Receipts for no message this integration sent' }),
    }),
  })
  .openapi('ReceiptResult');

export const receive = createRoute({
  method: 'post',
  path: '/v1/receipts/{integrationId}',
  tags: ['Receipts'],
  summary: "A provider's delivery receipts for one integration (SendGrid, Twilio, Mailgun, Postmark, Amazon SES through SNS)",
  description:
    "Called by the provider, not by API clients: no API key. The body is the provider's own format, verified with its signature scheme and the integration's credentials before anything is read. See docs/receipts.md.",
  security: [],
  [PROVIDER_DEFINED_BODY]: true,
  request: { params: z.object({ integrationId: z.string().openapi({ description: 'The integration id (not its identifier)' }) }) },
  responses: {
    200: jsonContent(ReceiptResultSchema, 'Verified; each receipt applied once'),
    ...errorResponses,
    401: errorResponse('Not signed, the signature (or basic auth) does not verify, or from a source the integration does not accept (an SNS topic it does not name): nothing applied'),
    404: errorResponse('No live integration with this id whose provider sends receipts'),
    413: errorResponse('Body over 1 MB'),
  },
});
