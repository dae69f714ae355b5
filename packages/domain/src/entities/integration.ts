import type { ChannelType } from './channel';
import type { IntegrationKind } from './provider-catalogue';
import type { StepFilter } from './step-filter';

/** Provider credentials as the interface lists them; which are required depends on the provider. */
export interface Credentials {
  apiKey?: string;
  user?: string;
  secretKey?: string;
  domain?: string;
  password?: string;
  host?: string;
  port?: string;
  secure?: boolean;
  region?: string;
  accountSid?: string;
  messageProfileId?: string;
  token?: string;
  from?: string;
  senderName?: string;
  projectName?: string;
  applicationId?: string;
  clientId?: string;
  requireTls?: boolean;
  ignoreTls?: boolean;
  tlsOptions?: Record<string, unknown>;
  baseUrl?: string;
  webhookUrl?: string;
  redirectUrl?: string;
  hmac?: boolean;
  serviceAccount?: string;
  apiToken?: string;
  accessKey?: string;
  appSid?: string;
  senderId?: string;
  channelId?: string;
  phoneNumberIdentification?: string;
  instanceId?: string;
  [field: string]: unknown;
}

export interface IntegrationConfigurations {
  inboundWebhookEnabled?: boolean;
  inboundWebhookSigningKey?: string;
  /** Sends per second through this integration, across every Herald process (the provider's limit); unset: as fast as it goes. */
  sendRatePerSecond?: number;
  /** Sends in flight at once through this integration in one process (its connections); unset: no bound of its own. */
  maxConcurrentSends?: number;
}

/** The bounds a send rate and a connection count must keep (a 422 names the field otherwise). */
export const SEND_LIMITS = { maxRatePerSecond: 100_000, maxConcurrentSends: 1_000 } as const;

export interface Integration {
  id: string;
  environmentId: string;
  name: string;
  identifier: string;
  providerId: string;
  /** null for agent integrations. */
  channel: ChannelType | null;
  kind: IntegrationKind;
  /** Decrypted; encrypted at rest by the repository. */
  credentials: Credentials;
  configurations: IntegrationConfigurations;
  active: boolean;
  primary: boolean;
  /** Among non-primary integrations of a channel, higher is tried first. */
  priority: number;
  conditions: StepFilter[];
  deleted: boolean;
  deletedAt: Date | null;
  deletedBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What a new integration is made of; channel and kind come from the provider. */
export type NewIntegration = Pick<
  Integration,
  'name' | 'identifier' | 'providerId' | 'channel' | 'kind' | 'credentials' | 'configurations' | 'active' | 'primary' | 'conditions'
>;

export type IntegrationChanges = Partial<
  Pick<NewIntegration, 'name' | 'identifier' | 'credentials' | 'configurations' | 'active' | 'conditions'>
>;

const SLUG = /[^a-z0-9]+/g;

/** `"My SendGrid"` + `sendgrid` -> `sendgrid-my-sendgrid-3f9a1c`: readable, and unique enough to rarely collide. */
export function defaultIntegrationIdentifier(providerId: string, name: string, suffix: string): string {
  const slug = name.toLowerCase().replace(SLUG, '-').replace(/^-+|-+$/g, '');
  return [providerId, slug && slug !== providerId ? slug : '', suffix].filter(Boolean).join('-');
}
