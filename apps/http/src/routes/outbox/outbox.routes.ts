import { createRoute, z } from '@hono/zod-openapi';
import { cursorPageSchema, cursorQuerySchema, errorResponses, jsonContent } from '../../platform/schemas';

export const OutboxMessageSchema = z
  .object({
    _id: z.string(),
    channel: z.enum(['email', 'sms']),
    providerId: z.string(),
    to: z.string().nullable(),
    subject: z.string().nullable(),
    body: z.string(),
    transactionId: z.string(),
    subscriberId: z.string().nullable(),
    status: z.string(),
    createdAt: z.string(),
  })
  .openapi('OutboxMessage');

export const list = createRoute({
  method: 'get',
  path: '/v1/outbox',
  tags: ['Outbox'],
  summary: 'Messages the built-in development email and SMS integrations delivered locally instead of sending',
  request: {
    query: cursorQuerySchema(['createdAt'] as const, 'createdAt').extend({
      channel: z.enum(['email', 'sms']).optional(),
      to: z.string().optional().openapi({ description: 'Recipient email address or phone number' }),
      transactionId: z.string().optional(),
      subscriberId: z.string().optional(),
    }),
  },
  responses: { 200: jsonContent(cursorPageSchema(OutboxMessageSchema, 'OutboxPage'), 'A page of outbox messages'), ...errorResponses },
});
