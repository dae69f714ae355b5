import { ProviderError } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outboundEmail } from '../../../../test/support/provider-fakes';
import { startSmtpFake, type SmtpFake } from '../../../../test/support/smtp-fake';
import { NodemailerEmailProvider } from './nodemailer-email-provider';

let smtp: SmtpFake;
const provider = new NodemailerEmailProvider({ allowPrivateNetworks: true, timeoutMs: 5_000 });
const credentials = () => ({ host: smtp.host, port: String(smtp.port), user: 'mailer', password: 'smtp-secret-1', from: 'noreply@herald.test', senderName: 'Herald' });
const message = outboundEmail;

beforeAll(async () => {
  smtp = await startSmtpFake({ user: 'mailer', password: 'smtp-secret-1' });
});
afterAll(async () => {
  await provider.close();
  await smtp?.close();
});

describe('NodemailerEmailProvider against a real SMTP server', () => {
  it('delivers the rendered message, with the trigger overrides, and returns the message id', async () => {
    const receipt = await provider.send(message({ replyTo: 'support@herald.test', cc: 'boss@example.com', headers: { 'X-Campaign': 'spring' } }), credentials());
    const [{ mail, envelope, user }] = smtp.messages.splice(0);
    expect(user).toBe('mailer');
    expect(mail.subject).toBe('Order A-1');
    expect(mail.from?.value).toEqual([{ name: 'Herald', address: 'noreply@herald.test' }]);
    expect((mail.html as string).trimEnd()).toBe('<p>On its way</p>'); // mailparser ends the part with a newline
    expect(mail.replyTo?.text).toBe('support@herald.test');
    expect(mail.headers.get('x-campaign')).toBe('spring');
    expect(envelope.to.sort()).toEqual(['ada@example.com', 'boss@example.com']);
    expect(receipt.providerMessageId).toBe(mail.messageId);
    expect(receipt.raw).toContain('queued as fake-1');
  });

  it('a wrong password is permanent, with a readable reason and no secret in it', async () => {
    const error = await provider.send(message(), { ...credentials(), password: 'wrong-password-9' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ retryable: false, message: expect.stringContaining('authentication failed') });
    expect(JSON.stringify(error) + (error as Error).message).not.toContain('wrong-password-9');
  });

  it('a 4xx reply is transient, a 5xx reply permanent, a closed port transient', async () => {
    smtp.failNext(1, 451);
    await expect(provider.send(message(), credentials())).rejects.toMatchObject({ retryable: true, extra: { code: '451' } });
    smtp.failNext(1, 550);
    await expect(provider.send(message(), credentials())).rejects.toMatchObject({ retryable: false, extra: { code: '550' } });
    await expect(provider.send(message(), { ...credentials(), port: '1' })).rejects.toMatchObject({ retryable: true });
  });

  it('sends that start together share one pool of maxConnections connections and all arrive', async () => {
    const server = await startSmtpFake();
    const fresh = new NodemailerEmailProvider({ allowPrivateNetworks: true, timeoutMs: 5_000 });
    try {
      const account = { host: server.host, port: String(server.port), from: 'noreply@herald.test' };
      const sends = Array.from({ length: 20 }, (_, i) => fresh.send({ ...message(), to: { email: `r${i}@example.com`, subscriberId: `r${i}` } }, account, { maxConnections: 3 }));
      expect((await Promise.allSettled(sends)).filter((r) => r.status === 'rejected')).toEqual([]);
      expect(server.messages.flatMap((m) => m.envelope.to).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `r${i}@example.com`).sort());
      // A pool made per concurrent first send would open more, and close the others' under them.
      expect(server.peakConnections).toBeLessThanOrEqual(3);
    } finally {
      await fresh.close();
      await server.close();
    }
  });

  it('refuses a private SMTP host unless the operator allows private networks', async () => {
    const guarded = new NodemailerEmailProvider({ allowPrivateNetworks: false });
    await expect(guarded.send(message(), credentials())).rejects.toMatchObject({ retryable: false, message: expect.stringContaining('refused to connect') });
  });
});
