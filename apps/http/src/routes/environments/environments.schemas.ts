import { z } from '@hono/zod-openapi';

export const EnvironmentSchema = z
  .object({
    _id: z.string(),
    _organizationId: z.string(),
    name: z.string(),
    slug: z.string(),
    /** The public application identifier the browser Inbox is given. */
    identifier: z.string(),
    inboxHmac: z.boolean(),
    inboxExposure: z.string().nullable().openapi({ description: 'What the Inbox setting leaves open, for a warning; null when sessions need the subscriber HMAC' }),
    corsOrigins: z.array(z.string()),
  })
  .openapi('Environment');

export const EnvironmentSettingsSchema = z
  .object({
    inboxHmac: z.boolean().optional().openapi({ description: 'Inbox sessions must carry subscriberHash (HMAC-SHA256 of the subscriber id with a secret key)' }),
    corsOrigins: z.array(z.string().max(2048)).max(100).optional().openapi({ description: 'Browser origins allowed to call the inbox API' }),
  })
  .strict()
  .openapi('EnvironmentSettings');

const policyFields = {
  maxAttempts: z.number().optional(),
  initialDelayMs: z.number().optional(),
  multiplier: z.number().optional(),
  maxDelayMs: z.number().optional(),
  jitter: z.number().optional(),
  failoverAfter: z.number().optional(),
};

export const RetryPolicyFieldsSchema = z.object(policyFields).strict().openapi('RetryPolicyFields', { description: 'The fields to set; the others keep following the service default' });

const RetryPolicyResolvedSchema = z.object(Object.fromEntries(Object.keys(policyFields).map((k) => [k, z.number()])) as { [K in keyof typeof policyFields]: z.ZodNumber });

export const RetryPolicySchema = z
  .object({
    effective: RetryPolicyResolvedSchema.openapi({ description: "What the environment's sends use now" }),
    own: z.object(policyFields).nullable().openapi({ description: 'The fields the environment sets itself; null: it follows the service default' }),
  })
  .openapi('RetryPolicy');

export const ApiKeySchema = z
  .object({
    id: z.string(),
    hint: z.string().openapi({ description: 'The first and last characters, to tell keys apart; never the secret' }),
    createdAt: z.string(),
    revokedAt: z.string().nullable(),
  })
  .openapi('ApiKey');

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().openapi({ description: 'The secret, shown this once: only its hash is kept (and an encrypted copy for inbox HMAC checks)' }),
}).openapi('CreatedApiKey');
