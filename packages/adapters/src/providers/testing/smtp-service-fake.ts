import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { INVALID } from './http-service-fake';
import type { InjectedFailure, RunningProviderFake, Target, WireMessage } from './provider-fake';

const addresses = (a: AddressObject | AddressObject[] | undefined) => (a ? (Array.isArray(a) ? a : [a]).flatMap((x) => x.value.map((v) => v.address ?? '')) : undefined);

/**
 * A real SMTP server on loopback (smtp-server) that answers like a mail service: AUTH refused with
 * 535 for a wrong password, an unknown recipient refused at RCPT with 550, and injected failures:
 * 451 (server trouble, transient in SMTP), 421 (too many messages; SMTP has no Retry-After), or a
 * DATA that is never answered.
 */
export async function startSmtpService(login: { user: string; password: string }, targets: (host: string, port: number) => { endpoint?: string; target: Target; badCredentials: Target }): Promise<RunningProviderFake> {
  const accepted: Array<{ id: string; wire: WireMessage }> = [];
  let failure: InjectedFailure | null = null;
  const hung: Array<() => void> = [];
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === login.user && auth.password === login.password) return callback(null, { user: auth.username });
      callback(Object.assign(new Error('5.7.8 Authentication credentials invalid'), { responseCode: 535 }));
    },
    onRcptTo(address, _session, callback) {
      if (address.address === INVALID.email) return callback(Object.assign(new Error('5.1.1 The email account that you tried to reach does not exist'), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const injected = failure;
        failure = null;
        if (injected === 'hang') return void hung.push(() => callback(null));
        if (injected === 'server-error') return callback(Object.assign(new Error('4.3.0 Temporary server error, try again later'), { responseCode: 451 }));
        if (injected === 'rate-limited') return callback(Object.assign(new Error('4.7.0 Too many messages, slow down'), { responseCode: 421 }));
        const mail = await simpleParser(Buffer.concat(chunks));
        const id = mail.messageId ?? '';
        const from = mail.from?.value[0];
        accepted.push({
          id,
          wire: {
            to: addresses(mail.to) ?? [],
            cc: addresses(mail.cc),
            // Bcc is on the envelope only: the recipients not in To or Cc.
            bcc: session.envelope.rcptTo.map((r) => r.address).filter((a) => ![...(addresses(mail.to) ?? []), ...(addresses(mail.cc) ?? [])].includes(a)),
            from: from?.address,
            senderName: from?.name || undefined,
            replyTo: mail.replyTo?.value[0]?.address,
            subject: mail.subject,
            body: typeof mail.html === 'string' ? mail.html.trimEnd() : undefined,
            text: mail.text?.trimEnd(),
            headers: Object.fromEntries([...mail.headers].filter(([k]) => k.startsWith('x-')).map(([k, v]) => [k, String(v)])),
            attachments: mail.attachments.map((a) => ({ filename: a.filename ?? '', contentType: a.contentType, content: a.content.toString('base64') })),
            extra: { user: session.user },
          },
        });
        callback(null, `2.0.0 OK queued as ${id}`);
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const { endpoint, target, badCredentials } = targets('127.0.0.1', port);
  return {
    endpoint,
    target,
    badCredentials,
    invalidRecipient: { ...target, to: { email: INVALID.email } },
    failNext: (f) => void (failure = f),
    lastId: () => accepted.at(-1)?.id,
    lastWire: () => accepted.at(-1)?.wire,
    accepted: () => accepted.length,
    close: async () => {
      for (const release of hung.splice(0)) release();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
