import { emailOverrides } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { startSmtpService } from '../testing/smtp-service-fake';

/** nodemailer against a real SMTP server: the tenant's host and port are the credentials. */
export const fake: ProviderFake = {
  id: 'nodemailer',
  channel: 'email',
  overrides: emailOverrides(),
  unsupported: { retryAfter: 'SMTP has no Retry-After: a 421 is transient with the policy backoff' },
  start: () =>
    startSmtpService({ user: 'mailer', password: 'smtp-secret-1' }, (host, port) => {
      const credentials = { host, port: String(port), user: 'mailer', password: 'smtp-secret-1', from: 'shop@herald.test', senderName: 'Shop' };
      return { target: { to: { email: 'ada@example.com' }, credentials }, badCredentials: { to: { email: 'ada@example.com' }, credentials: { ...credentials, password: 'wrong-password-9' } } };
    }),
};
