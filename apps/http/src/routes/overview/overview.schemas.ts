import { z } from '@hono/zod-openapi';

const LagSchema = z.object({
  count: z.number().openapi({ description: 'Sent channel steps measured' }),
  p50Ms: z.number().nullable().openapi({ description: 'Median of sent-at minus the notification\'s creation, estimated from a histogram (exact to its bucket); null with no sends' }),
  p95Ms: z.number().nullable(),
});

const BucketSchema = z
  .object({
    start: z.string().openapi({ description: 'Start of the hour or UTC day' }),
    triggers: z.number().openapi({ description: 'Accepted triggers' }),
    deliveries: z.array(z.object({ channel: z.string(), outcome: z.enum(['sent', 'skipped', 'failed']), count: z.number() })).openapi({ description: 'Channel steps that ended, per channel and outcome' }),
    providerFailures: z.array(z.object({ providerId: z.string(), channel: z.string(), count: z.number() })).openapi({ description: 'Failed provider attempts (retried, failed over or final), per provider' }),
    lag: LagSchema,
    lagByChannel: z.array(LagSchema.extend({ channel: z.string() })),
  })
  .openapi('OverviewBucket');

export const OverviewSchema = z
  .object({
    generatedAt: z.string(),
    hourly: z.array(BucketSchema).openapi({ description: 'The last 24 hours, oldest first; the last is the hour under way' }),
    daily: z.array(BucketSchema).openapi({ description: 'The last 7 UTC days, oldest first; the last is today so far' }),
  })
  .openapi('Overview');
