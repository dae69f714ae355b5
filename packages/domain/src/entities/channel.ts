export const CHANNEL_TYPES = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'throttle', 'custom', 'http_request'] as const;
export type StepType = (typeof STEP_TYPES)[number];
/**
 * Steps whose handler acts outside Herald's database (providers, HTTP calls). A worker leases such a
 * job while it runs, so no other worker repeats the side effect. The other steps only compute what
 * is recorded, so they are not leased: if two workers ever ran one at once, the first result recorded
 * wins and the other is discarded.
 */
// digest and throttle too: their repositories count each job once, so two runs of one job must not overlap.
export const LEASED_STEP_TYPES = ['email', 'sms', 'chat', 'push', 'http_request', 'digest', 'throttle', 'custom'] as const satisfies readonly StepType[];
/** Step types a workflow can contain (`trigger` is the workflow's entry, not a step). */
export type WorkflowStepType = Exclude<StepType, 'trigger'>;

export const SEVERITIES = ['high', 'medium', 'low', 'none'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const DIGEST_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'] as const;
export type DigestUnit = (typeof DIGEST_UNITS)[number];

export function isChannelType(value: string): value is ChannelType {
  return (CHANNEL_TYPES as readonly string[]).includes(value);
}

export function assertNever(value: never, what = 'value'): never {
  throw new Error(`unexpected ${what}: ${JSON.stringify(value)}`);
}
