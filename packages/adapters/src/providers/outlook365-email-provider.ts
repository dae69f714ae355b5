import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt, SendOptions } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { NodemailerEmailProvider } from './nodemailer-email-provider';

/** Microsoft 365's SMTP submission endpoint: STARTTLS on 587, the mailbox's own login. */
const OFFICE365 = { host: 'smtp.office365.com', port: '587' };

/**
 * Outlook / Microsoft 365 over SMTP (nodemailer): the mailbox `from` (or `user`) with its password,
 * on smtp.office365.com:587 with STARTTLS required. An operator endpoint (`smtp://host:port`, for a
 * relay or a test server) replaces the host; being operator-set, it may be a private address.
 */
export class Outlook365EmailProvider implements DeliveryProvider {
  private readonly smtp: NodemailerEmailProvider;
  private readonly server: { host: string; port: string; requireTls: boolean };

  constructor(options: { endpoint?: string; timeoutMs: number }) {
    const endpoint = options.endpoint ? new URL(options.endpoint) : undefined;
    this.server = endpoint ? { host: endpoint.hostname, port: endpoint.port || '587', requireTls: endpoint.protocol === 'smtps:' } : { ...OFFICE365, requireTls: true };
    this.smtp = new NodemailerEmailProvider({ allowPrivateNetworks: endpoint !== undefined, timeoutMs: options.timeoutMs });
  }

  send(message: OutboundMessage, credentials: Credentials, options?: SendOptions): Promise<ProviderReceipt> {
    const user = credentials.user ?? credentials.from;
    if (!user || !credentials.password) throw new ProviderError('the integration needs from (or user) and password', false);
    return this.smtp.send(message, { ...credentials, ...this.server, user, secure: false }, options);
  }

  close(): Promise<void> {
    return this.smtp.close();
  }
}

export const providers = [
  defineProvider({ id: 'outlook365', through: 'SMTP to smtp.office365.com:587 (`nodemailer`)', create: (kit) => new Outlook365EmailProvider({ endpoint: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
