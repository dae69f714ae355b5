export const CHANNEL_TYPES = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
export type ChannelType = (typeof CHANNEL_TYPES)[number];

export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'throttle', 'custom', 'http_request'] as const;
export type StepType = (typeof STEP_TYPES)[number];
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
