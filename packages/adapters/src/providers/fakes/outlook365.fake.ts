import { emailOverrides } from '../testing/email-overrides';
import type { ProviderFake } from '../testing/provider-fake';
import { startSmtpService } from '../testing/smtp-service-fake';

/** Microsoft 365 SMTP submission, played by a real SMTP server the operator endpoint points at; the login is the mailbox. */
export const fake: ProviderFake = {
  id: 'outlook365',
  channel: 'email',
  overrides: emailOverrides(),
  unsupported: { retryAfter: 'SMTP has no Retry-After: a 421 is transient with the policy backoff' },
  start: () =>
    startSmtpService({ user: 'shop@herald.test', password: 'o365-secret-1' }, (host, port) => {
      const credentials = { from: 'shop@herald.test', senderName: 'Shop', password: 'o365-secret-1' };
      return {
        endpoint: `smtp://${host}:${port}`,
        target: { to: { email: 'ada@example.com' }, credentials },
        badCredentials: { to: { email: 'ada@example.com' }, credentials: { ...credentials, password: 'o365-wrong-9' } },
      };
    }),
};
