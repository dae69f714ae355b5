import type { FieldErrors } from '../errors';
import type { ChannelType } from './channel';

export const ENDPOINT_TYPES = [
  'slack_channel', 'slack_user', 'webhook', 'phone', 'ms_teams_channel', 'ms_teams_user', 'telegram_chat',
] as const;
export type EndpointType = (typeof ENDPOINT_TYPES)[number];

/** The destination itself; its shape depends on the endpoint type. */
export type EndpointAddress = Record<string, string>;

/** What connections and endpoints share: an identifier, and the integration they belong to (null parts: it is gone). */
export interface IntegrationBound {
  id: string;
  environmentId: string;
  identifier: string;
  integrationId: string;
  integrationIdentifier: string | null;
  providerId: string | null;
  channel: ChannelType | null;
  contextKeys: string[];
  createdAt: Date;
  updatedAt: Date;
}

/** The shared fields of a connection or endpoint row, with what it shows of its integration (null parts when that is gone). */
export function toIntegrationBound(
  row: { id: string; environmentId: string; identifier: string; integrationId: string; contextKeys: string[]; createdAt: Date; updatedAt: Date },
  integration: { identifier: string; providerId: string; channel: ChannelType | null } | undefined,
): IntegrationBound {
  return {
    id: row.id,
    environmentId: row.environmentId,
    identifier: row.identifier,
    integrationId: row.integrationId,
    integrationIdentifier: integration?.identifier ?? null,
    providerId: integration?.providerId ?? null,
    channel: integration?.channel ?? null,
    contextKeys: row.contextKeys,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Workspace-level access for a provider integration (a Slack workspace's bot token, say). */
export interface ChannelConnection extends IntegrationBound {
  /** External subscriberId; null for a connection shared by a context. */
  subscriberId: string | null;
  workspace: { id: string; name?: string; botUserId?: string };
  /** Decrypted; encrypted at rest by the repository. */
  auth: { accessToken: string; refreshToken?: string; expiresAt?: string; refreshTokenExpiresAt?: string };
}

/** A concrete destination of one subscriber on one integration. */
export interface ChannelEndpoint extends IntegrationBound {
  connectionId: string | null;
  connectionIdentifier: string | null;
  /** External subscriberId. */
  subscriberId: string;
  type: EndpointType;
  endpoint: EndpointAddress;
}

const E164 = /^\+[1-9]\d{1,14}$/;

type FieldRule = { required: boolean; check?: (v: string) => string | null };
const nonEmpty: FieldRule = { required: true };
const SHAPES: Record<EndpointType, Record<string, FieldRule>> = {
  slack_channel: { channelId: nonEmpty },
  slack_user: { userId: nonEmpty },
  webhook: { url: { required: true, check: (v) => (isHttpUrl(v) ? null : 'must be an absolute http(s) URL') }, channel: { required: false } },
  phone: { phoneNumber: { required: true, check: (v) => (E164.test(v) ? null : 'must be a phone number in E.164 format, e.g. +14155550123') } },
  ms_teams_channel: { teamId: nonEmpty, channelId: nonEmpty },
  ms_teams_user: { userId: nonEmpty },
  telegram_chat: { chatId: nonEmpty },
};

function isHttpUrl(value: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Checks `endpoint` against its `type`; unknown keys are refused so typos are not stored silently. */
export function validateEndpoint(type: EndpointType, endpoint: unknown): FieldErrors {
  const errors: FieldErrors = {};
  if (endpoint === null || typeof endpoint !== 'object' || Array.isArray(endpoint)) {
    return { endpoint: { messages: [`must be an object for type ${type}`], value: endpoint } };
  }
  const shape = SHAPES[type];
  const record = endpoint as Record<string, unknown>;
  for (const [field, rule] of Object.entries(shape)) {
    const value = record[field];
    if (value === undefined && !rule.required) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      errors[`endpoint.${field}`] = { messages: [`is required for type ${type} and must be a non-empty string`], value };
      continue;
    }
    const problem = rule.check?.(value);
    if (problem) errors[`endpoint.${field}`] = { messages: [problem], value };
  }
  for (const field of Object.keys(record)) {
    if (!(field in shape)) errors[`endpoint.${field}`] = { messages: [`is not a field of a ${type} endpoint`], value: record[field] };
  }
  return errors;
}

/** Whether an endpoint of this type can be delivered through an integration of that provider. */
export function endpointFitsProvider(type: EndpointType, provider: { id: string; genericId: string; channel: ChannelType | null }): boolean {
  switch (type) {
    case 'phone':
      return provider.channel === 'sms';
    case 'slack_channel':
    case 'slack_user':
      return provider.genericId === 'slack' || provider.genericId === 'svc-slack';
    case 'ms_teams_channel':
    case 'ms_teams_user':
      return provider.genericId === 'msteams';
    case 'telegram_chat':
      return provider.genericId === 'telegram';
    case 'webhook':
      return provider.channel === 'chat' || provider.channel === 'push';
  }
}
