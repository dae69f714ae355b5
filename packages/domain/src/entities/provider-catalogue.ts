import { token } from '../shared/token';
import type { ChannelType } from './channel';

export type IntegrationKind = 'delivery' | 'agent';

/** `svc` stands for the service's own name (SERVICE_NAME): `svc-email` becomes `herald-email`. */
const SVC = 'svc';

// The interface's ProviderId list, grouped by the channel each provider delivers on.
const PROVIDERS_BY_CHANNEL: Record<ChannelType | 'agent', readonly string[]> = {
  email: [
    'emailjs', 'mailgun', 'mailjet', 'mandrill', 'nodemailer', 'postmark', 'sendgrid', 'sendinblue', 'ses', 'netcore',
    'infobip-email', 'resend', 'plunk', 'mailersend', 'mailtrap', 'outlook365', 'svc-email', 'sparkpost', 'email-webhook',
    'braze', 'svc-email-agent',
  ],
  sms: [
    'clickatell', 'nexmo', 'plivo', 'sms77', 'sms-central', 'sns', 'telnyx', 'twilio', 'gupshup', 'firetext', 'infobip-sms',
    'burst-sms', 'bulk-sms', 'isend-sms', 'forty-six-elks', 'kannel', 'maqsam', 'termii', 'africas-talking', 'svc-sms',
    'sendchamp', 'generic-sms', 'clicksend', 'bandwidth', 'messagebird', 'simpletexting', 'azure-sms', 'ring-central',
    'brevo-sms', 'eazy-sms', 'mobishastra', 'afro-message', 'unifonic', 'smsmode', 'imedia', 'sinch', 'isendpro-sms',
    'cm-telecom',
  ],
  push: ['fcm', 'apns', 'expo', 'one-signal', 'pushpad', 'push-webhook', 'pusher-beams', 'appio'],
  in_app: ['svc'],
  chat: [
    'slack', 'discord', 'msteams', 'mattermost', 'ryver', 'zulip', 'grafana-on-call', 'getstream', 'rocket-chat',
    'whatsapp-business', 'chat-webhook', 'svc-slack', 'telegram',
  ],
  agent: ['anthropic', 'svc-anthropic', 'anthropic-aws'],
};

export interface ProviderInfo {
  /** The provider id with the service name in place of `svc`. */
  id: string;
  /** Provider id as the interface writes it (`svc-email`), the key of per-provider rules. */
  genericId: string;
  /** null for agent integrations, which deliver on no channel. */
  channel: ChannelType | null;
  kind: IntegrationKind;
  /** Provided by the service itself (in-app feed, development outbox sinks): needs no credentials. */
  builtIn: boolean;
}

export interface BuiltInIntegration {
  providerId: string;
  identifier: string;
  name: string;
  channel: ChannelType;
}

export const ProviderCatalogue = token<ProviderCatalogue>('ProviderCatalogue');

/** The providers one running service knows, with its own name substituted. Built once at start-up. */
export interface ProviderCatalogue {
  serviceName: string;
  /** Every provider id, in the interface's order of channels. */
  ids: readonly string[];
  find(providerId: string): ProviderInfo | undefined;
  /** In-app feed, and the development email and SMS sinks that write into the local outbox. */
  builtIns: readonly BuiltInIntegration[];
  /** The outbox sink of a channel (`herald-email` for email), if the service has one. */
  outboxProvider(channel: ChannelType): string | undefined;
}

function substitute(genericId: string, serviceName: string): string {
  if (genericId === SVC) return serviceName;
  return genericId.startsWith(`${SVC}-`) ? `${serviceName}${genericId.slice(SVC.length)}` : genericId;
}

export function providerCatalogue(serviceName: string): ProviderCatalogue {
  const byId = new Map<string, ProviderInfo>();
  for (const [group, ids] of Object.entries(PROVIDERS_BY_CHANNEL) as Array<[ChannelType | 'agent', readonly string[]]>) {
    for (const genericId of ids) {
      const id = substitute(genericId, serviceName);
      const builtIn = genericId === SVC || genericId.startsWith(`${SVC}-`);
      byId.set(id, {
        id,
        genericId,
        channel: group === 'agent' ? null : group,
        kind: group === 'agent' ? 'agent' : 'delivery',
        builtIn,
      });
    }
  }
  const label = serviceName.charAt(0).toUpperCase() + serviceName.slice(1);
  const builtIns: BuiltInIntegration[] = [
    { providerId: serviceName, identifier: serviceName, name: `${label} In-App`, channel: 'in_app' },
    { providerId: `${serviceName}-email`, identifier: `${serviceName}-email`, name: `${label} Email (development outbox)`, channel: 'email' },
    { providerId: `${serviceName}-sms`, identifier: `${serviceName}-sms`, name: `${label} SMS (development outbox)`, channel: 'sms' },
  ];
  const outbox: Partial<Record<ChannelType, string>> = { email: `${serviceName}-email`, sms: `${serviceName}-sms` };
  return {
    serviceName,
    ids: [...byId.keys()],
    find: (providerId) => byId.get(providerId),
    builtIns,
    outboxProvider: (channel) => outbox[channel],
  };
}
