import type { DeliveryProvider, HttpClient, ProviderRegistry } from '@herald/domain';
import { NodemailerEmailProvider } from './nodemailer-email-provider';
import { OutboxProvider } from './outbox-provider';
import type { ProviderEndpoints } from './provider-failure';
import { ResendEmailProvider } from './resend-email-provider';
import { SendGridEmailProvider } from './sendgrid-email-provider';
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

  constructor(serviceName: string, http: HttpClient, settings: ProviderSettings = { allowPrivateNetworks: false, endpoints: {} }) {
    const outbox = new OutboxProvider();
    const webhook = new WebhookProvider(http, serviceName);
    const baseUrl = (providerId: string) => ({ baseUrl: settings.endpoints[providerId] });
    this.providers.set(`${serviceName}-email`, outbox);
    this.providers.set(`${serviceName}-sms`, outbox);
    for (const id of ['email-webhook', 'chat-webhook', 'push-webhook', 'generic-sms']) this.providers.set(id, webhook);
    this.providers.set('nodemailer', new NodemailerEmailProvider({ allowPrivateNetworks: settings.allowPrivateNetworks }));
    this.providers.set('sendgrid', new SendGridEmailProvider(baseUrl('sendgrid')));
    this.providers.set('resend', new ResendEmailProvider(baseUrl('resend')));
    this.providers.set('twilio', new TwilioSmsProvider(baseUrl('twilio')));
  }

  get(providerId: string): DeliveryProvider | null {
    return this.providers.get(providerId) ?? null;
  }
}
