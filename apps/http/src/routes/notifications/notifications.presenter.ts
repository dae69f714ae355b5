import type { ActivityJob, ActivityNotification, Caller } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { ActivityNotificationSchema } from './notifications.schemas';

type Presented = z.infer<typeof ActivityNotificationSchema>;

/** Leaves absent values out: the activity resource's optional fields are never null. */
function present<T>(value: T | null | undefined): T | undefined {
  return value ?? undefined;
}

const DIGEST_TYPES = new Set(['regular', 'backoff', 'timed']);

function presentJob(job: ActivityJob, serviceName: string): Presented['jobs'][number] {
  const digest = job.digest && DIGEST_TYPES.has(String(job.digest.type)) ? job.digest : undefined;
  return {
    _id: job.id,
    type: job.type,
    status: job.status,
    // Steps the service runs itself (in-app, delay, custom...) are attributed to its own provider.
    providerId: job.providerId ?? serviceName,
    ...(digest ? { digest } : {}),
    payload: job.payload,
    overrides: job.overrides,
    updatedAt: job.updatedAt.toISOString(),
    scheduleExtensionsCount: job.scheduleExtensionsCount,
    step: {
      _id: job.step.id,
      _templateId: job.step.id,
      _parentId: null,
      stepId: job.step.stepId,
      name: job.step.name,
      active: job.step.active,
      filters: job.step.filters as unknown as Array<Record<string, unknown>>,
    },
    executionDetails: job.executionDetails.map((d) => ({
      _id: d.id,
      createdAt: d.createdAt.toISOString(),
      status: d.status,
      source: d.source,
      detail: d.detail,
      isRetry: d.isRetry,
      isTest: d.isTest,
      providerId: present(d.providerId),
      raw: d.raw,
    })),
    ...(job.message
      ? {
          message: {
            _id: job.message.id,
            channel: job.message.channel,
            providerId: present(job.message.providerId),
            status: job.message.status,
            destination: job.message.destination,
            subject: present(job.message.subject),
            body: job.message.body,
            createdAt: job.message.createdAt.toISOString(),
          },
        }
      : {}),
  };
}

export function presentActivityNotification(n: ActivityNotification, caller: Caller, serviceName: string): Presented {
  const s = n.subscriber;
  const w = n.workflow;
  return {
    _id: n.id,
    _environmentId: n.environmentId,
    _organizationId: caller.organizationId,
    _subscriberId: s.id,
    _templateId: n.workflowId,
    _digestedNotificationId: present(n.digestedNotificationId),
    transactionId: n.transactionId,
    createdAt: n.createdAt.toISOString(),
    updatedAt: n.updatedAt.toISOString(),
    channels: n.channels,
    subscriber: {
      _id: s.id,
      subscriberId: s.subscriberId,
      firstName: present(s.firstName),
      lastName: present(s.lastName),
      email: present(s.email),
      phone: present(s.phone),
    },
    template: w
      ? {
          _id: w.id,
          name: w.name,
          origin: w.origin,
          triggers: [{ type: 'event', identifier: w.identifier, variables: w.payloadVariables.map((name) => ({ name })) }],
        }
      : undefined,
    jobs: n.jobs.map((j) => presentJob(j, serviceName)),
    payload: n.payload,
    controls: present(n.controls),
    to: present(n.to),
    tags: n.tags,
    topics: n.topics,
    severity: n.severity,
    critical: n.critical,
    contextKeys: n.contextKeys,
  };
}
