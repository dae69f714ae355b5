import type { DeliveryProvider, HttpClient, ProviderRegistry } from '@herald/domain';
import { ChatWebhookProvider } from './chat-webhook-provider';
import { FcmPushProvider } from './fcm-push-provider';
import { GenericSmsProvider } from './generic-sms-provider';
import { NodemailerEmailProvider } from './nodemailer-email-provider';
import { OutboxProvider } from './outbox-provider';
import type { ProviderEndpoints } from './provider-failure';
import { ResendEmailProvider } from './resend-email-provider';
import { SendGridEmailProvider } from './sendgrid-email-provider';
import { SlackChatProvider } from './slack-chat-provider';
import { TwilioSmsProvider } from './twilio-sms-provider';
import { WebhookProvider } from './webhook-provider';

export interface ProviderSettings {
  /** Let tenant-configured hosts (SMTP servers) be private, loopback or link-local addresses. */
  allowPrivateNetworks: boolean;
  /** Operator-set API base URLs by provider id, for sandboxes, proxies and tests. */
  endpoints: ProviderEndpoints;
}

/** The providers this build can send through, by providerId (the built-in sinks carry the service name). */
export class StaticProviderRegistry implements ProviderRegistry {
  private readonly providers = new Map<string, DeliveryProvider>();
  private readonly fcm: FcmPushProvider;

  constructor(serviceName: string, http: HttpClient, settings: ProviderSettings = { allowPrivateNetworks: false, endpoints: {} }) {
    const outbox = new OutboxProvider();
    const webhook = new WebhookProvider(http, serviceName);
    const baseUrl = (providerId: string) => ({ baseUrl: settings.endpoints[providerId] });
    this.providers.set(`${serviceName}-email`, outbox);
    this.providers.set(`${serviceName}-sms`, outbox);
    for (const id of ['email-webhook', 'chat-webhook', 'push-webhook']) this.providers.set(id, webhook);
    this.providers.set('generic-sms', new GenericSmsProvider(http));
    this.providers.set('nodemailer', new NodemailerEmailProvider({ allowPrivateNetworks: settings.allowPrivateNetworks }));
    this.providers.set('sendgrid', new SendGridEmailProvider(baseUrl('sendgrid')));
    this.providers.set('resend', new ResendEmailProvider(baseUrl('resend')));
    this.providers.set('twilio', new TwilioSmsProvider(baseUrl('twilio')));
    this.providers.set('slack', new SlackChatProvider(http, baseUrl('slack')));
    for (const format of ['discord', 'msteams', 'mattermost'] as const) this.providers.set(format, new ChatWebhookProvider(http, format));
    this.providers.set('fcm', (this.fcm = new FcmPushProvider(baseUrl('fcm'))));
  }

  get(providerId: string): DeliveryProvider | null {
    return this.providers.get(providerId) ?? null;
  }

  /** Releases what providers keep between sends (firebase apps). */
  close(): Promise<void> {
    return this.fcm.close();
  }
}
