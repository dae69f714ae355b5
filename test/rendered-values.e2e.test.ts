import { Novu } from '@novu/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';
import { startSmtpFake, type SmtpFake } from './support/smtp-fake';
import { finishedSteps } from './support/step-outcomes';
import { waitFor } from './support/wait';
import { insertWorkflowWithSteps, queryDatabase } from './support/workflow-rows';

// What a trigger's payload (anyone's input, in many products) can do to a message once rendered:
// read off the real SMTP server the email reached, and off the stored SMS.
let svc: TestService;
let novu: Novu;
let smtp: SmtpFake;

const HOSTILE = {
  orderId: 'A-1\r\nBcc: victim@evil.test',
  note: '<img src=x onerror=alert(1)> & "quotes"',
  banner: '<b>Sale</b>',
};

beforeAll(async () => {
  smtp = await startSmtpFake();
  svc = await startService({ HERALD_ALLOW_PRIVATE_NETWORKS: 'true' });
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
  await novu.subscribers.create({ subscriberId: 'ada', firstName: 'Ada & Co', email: 'ada@example.com', phone: '+15550001111' });
  await novu.integrations.create({ providerId: 'nodemailer', channel: 'email', identifier: 'smtp', name: 'smtp', active: true, credentials: { host: smtp.host, port: String(smtp.port), from: 'shop@herald.test', senderName: 'Shop' } });
  await insertWorkflowWithSteps(svc.databaseUrl, { workflowId: 'order' }, [
    {
      type: 'email',
      stepId: 'mail',
      controlValues: { subject: 'Order {{payload.orderId}} for {{subscriber.firstName}}', body: '<p>{{payload.note}}, {{ subscriber.firstName }}</p>{{ payload.banner | raw }}' },
    },
    { type: 'sms', stepId: 'text', controlValues: { body: 'Hi {{subscriber.firstName}}: {{payload.note}}' } },
  ]);
}, 90_000);
afterAll(async () => {
  await svc?.dispose();
  await smtp?.close();
});

/** Triggers `order` to ada and waits for the email the SMTP server received, and the subject Herald recorded for it. */
async function deliver(transactionId: string, overrides?: Record<string, unknown>) {
  await novu.trigger({ workflowId: 'order', to: 'ada', payload: HOSTILE, transactionId, overrides });
  const steps = await waitFor(() => finishedSteps(svc.databaseUrl, transactionId), 30_000);
  expect(steps.map((s) => s.status)).toEqual(['completed', 'completed']);
  const received = smtp.messages.filter((m) => m.mail.headers.get('x-herald-transaction-id') === transactionId);
  expect(received).toHaveLength(1);
  const [recorded] = await queryDatabase<{ subject: string }>(
    svc.databaseUrl,
    `SELECT m.subject FROM messages m JOIN notifications n ON n.id = m.notification_id WHERE n.transaction_id = $1 AND m.channel = 'email'`,
    [transactionId],
  );
  return { ...received[0], recordedSubject: recorded.subject };
}

describe('rendered payload and subscriber values', () => {
  it('with CR/LF, in the subject or in a header-bound override, add no header and no recipient', async () => {
    const { mail, envelope, recordedSubject } = await deliver('tx-crlf', { email: { senderName: 'Shop\r\nX-Injected: yes' } });
    expect(envelope.to).toEqual(['ada@example.com']);
    expect(mail.bcc).toBeUndefined();
    expect([...mail.headers.keys()].filter((name) => ['bcc', 'x-injected'].includes(name))).toEqual([]);
    expect(mail.subject).toBe('Order A-1 Bcc: victim@evil.test for Ada & Co');
    expect(mail.from?.value).toEqual([{ name: 'Shop X-Injected: yes', address: 'shop@herald.test' }]);
    // What Herald rendered and recorded (and what an HTTP email API would be sent) is one line too.
    expect(recordedSubject).toBe('Order A-1 Bcc: victim@evil.test for Ada & Co');
  });

  it('reach an email’s HTML body escaped, and a template inserts trusted HTML with raw', async () => {
    const { mail } = await deliver('tx-html');
    expect((mail.html as string).trimEnd()).toBe('<p>&lt;img src=x onerror=alert(1)&gt; &amp; &#34;quotes&#34;, Ada &amp; Co</p><b>Sale</b>');
  });

  it('reach a text channel as they are: no HTML entities in an SMS', async () => {
    await novu.trigger({ workflowId: 'order', to: 'ada', payload: HOSTILE, transactionId: 'tx-sms' });
    await waitFor(() => finishedSteps(svc.databaseUrl, 'tx-sms'), 30_000);
    const [sms] = await queryDatabase<{ body: string }>(
      svc.databaseUrl,
      `SELECT m.body FROM messages m JOIN notifications n ON n.id = m.notification_id WHERE n.transaction_id = 'tx-sms' AND m.channel = 'sms'`,
    );
    expect(sms.body).toBe(`Hi Ada & Co: ${HOSTILE.note}`);
  });
});
