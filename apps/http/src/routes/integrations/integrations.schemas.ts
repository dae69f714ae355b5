import { CHANNEL_TYPES, FILTER_FIELD_TYPES, FILTER_OPERATORS, FILTER_SOURCES } from '@herald/domain';
import { z } from '@hono/zod-openapi';

const text = z.string().optional();
const flag = z.boolean().optional();

/** Every credential field the interface names; which are required depends on the provider (checked by the domain). */
export const CredentialsSchema = z
  .strictObject({
    apiKey: text, user: text, secretKey: text, domain: text, password: text, host: text,
    // SMTP ports arrive as strings from the SDK and as numbers from people.
    port: z.union([z.string(), z.number().int()]).transform(String).optional(),
    secure: flag, region: text, accountSid: text, messageProfileId: text, token: text, from: text, senderName: text,
    projectName: text, applicationId: text, clientId: text, requireTls: flag, ignoreTls: flag,
    tlsOptions: z.record(z.string(), z.unknown()).optional(), baseUrl: text, webhookUrl: text, redirectUrl: text, hmac: flag,
    hmacSecretKeyEncoding: z.enum(['text', 'base64', 'hex']).optional(), serviceAccount: text, ipPoolName: text,
    configurationSetName: text, apiKeyRequestHeader: text, secretKeyRequestHeader: text, idPath: text, datePath: text,
    apiToken: text, authenticateByToken: flag, authenticationTokenKey: text, instanceId: text, alertUid: text, title: text,
    imageUrl: text, state: text, externalLink: text, channelId: text, phoneNumberIdentification: text, accessKey: text,
    appSid: text, senderId: text, tenantId: text, AppIOBaseUrl: text, signingSecret: text, outboundIntegrationId: text,
    useFromAddressOverride: flag, fromAddressOverride: text, emailSlugPrefix: text, externalEnvironmentId: text,
    externalVaultId: text, externalWorkspaceId: text,
    // Herald's own: the SNS topics an SES integration takes delivery receipts from (docs/receipts.md).
    topicArns: text,
    // Sent by @novu/api (state of Novu's own dashboard flows): accepted, not kept.
    outboundConnectedAt: text, whatsNextCompletedAt: text,
  })
  .openapi('Credentials');

export const StepFilterSchema = z
  .strictObject({
    isNegated: z.boolean().default(false),
    type: z.enum(FILTER_FIELD_TYPES),
    value: z.enum(['AND', 'OR']),
    children: z.array(
      z.strictObject({
        field: z.string().min(1),
        value: z.string(),
        operator: z.enum(FILTER_OPERATORS),
        on: z.enum(FILTER_SOURCES),
      }),
    ),
  })
  .openapi('StepFilter');

const ConfigurationsSchema = z
  .strictObject({
    inboundWebhookEnabled: flag,
    inboundWebhookSigningKey: text,
    sendRatePerSecond: z.number().optional().openapi({ description: 'Sends per second through this integration across every Herald process (the provider limit); the rest wait in the queue' }),
    maxConcurrentSends: z.number().optional().openapi({ description: 'Sends in flight at once through this integration in one process (its connections)' }),
  })
  .openapi('IntegrationConfigurations');

export const CreateIntegrationSchema = z
  .strictObject({
    providerId: z.string().min(1),
    name: text,
    identifier: text,
    channel: z.enum(CHANNEL_TYPES).optional(),
    kind: z.enum(['delivery', 'agent']).optional(),
    credentials: CredentialsSchema.optional(),
    configurations: ConfigurationsSchema.optional(),
    active: flag,
    conditions: z.array(StepFilterSchema).optional(),
    /** Accepted for SDK compatibility: the environment is always the API key's, and credentials are not probed. */
    _environmentId: text,
    check: flag,
  })
  .openapi('CreateIntegrationRequest');

export const UpdateIntegrationSchema = CreateIntegrationSchema.pick({
  name: true,
  identifier: true,
  active: true,
  credentials: true,
  configurations: true,
  conditions: true,
  _environmentId: true,
  check: true,
}).openapi('UpdateIntegrationRequest');

export const IntegrationSchema = z
  .object({
    _id: z.string(),
    _environmentId: z.string(),
    _organizationId: z.string(),
    name: z.string(),
    identifier: z.string(),
    providerId: z.string(),
    channel: z.enum(CHANNEL_TYPES).optional(),
    kind: z.enum(['delivery', 'agent']),
    configurations: ConfigurationsSchema,
    active: z.boolean(),
    deleted: z.boolean(),
    deletedAt: z.string().optional(),
    deletedBy: z.string().optional(),
    primary: z.boolean(),
    conditions: z.array(StepFilterSchema),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .openapi('Integration', { description: 'Credentials are never returned to API-key callers.' });

export const IntegrationTestRequestSchema = z
  .object({
    to: z.string().trim().min(1).max(2048).openapi({ description: "Where the test goes, as the integration's channel needs: an email address, a phone number, a chat webhook URL or channel id, or a push device token", example: 'ada@example.com' }),
    subject: z.string().max(998).optional(),
    body: z.string().max(100_000).optional(),
  })
  .strict()
  .openapi('IntegrationTestRequest');

export const IntegrationTestResultSchema = z
  .object({
    sent: z.boolean().openapi({ description: 'Whether the provider accepted the message; a refusal is an answer (200), not an error' }),
    providerId: z.string(),
    providerMessageId: z.string().nullable().optional(),
    error: z.string().optional().openapi({ description: "The provider's refusal, when not sent" }),
    retryable: z.boolean().optional().openapi({ description: 'Whether a later attempt may succeed (timeouts, 429, 5xx)' }),
    raw: z.string().nullable().openapi({ description: "The provider's answer as it gave it, secrets redacted" }),
  })
  .openapi('IntegrationTestResult');
