import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpFake {
  host: string;
  port: number;
  /** Messages received, parsed off the wire, with the SMTP envelope and when their data ended (Date.now()). */
  messages: Array<{ mail: ParsedMail; envelope: { from: string; to: string[] }; user?: string; at: number }>;
  /** Most client connections open at once so far. */
  readonly peakConnections: number;
  /** The next `count` messages are refused with this reply (e.g. 451 transient, 550 permanent). */
  failNext(count: number, code: number, message?: string): void;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (smtp-server), requiring AUTH as `user`/`password` when given. */
export async function startSmtpFake(auth?: { user: string; password: string }): Promise<SmtpFake> {
  const messages: SmtpFake['messages'] = [];
  let failures = { count: 0, code: 451, message: 'try again later' };
  let open = 0;
  let peak = 0;
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', ...(auth ? [] : ['AUTH'])],
    authOptional: !auth,
    allowInsecureAuth: true,
    logger: false,
    onAuth(login, _session, callback) {
      if (auth && login.username === auth.user && login.password === auth.password) return callback(null, { user: login.username });
      const error = Object.assign(new Error('Invalid username or password'), { responseCode: 535 });
      callback(error);
    },
    onConnect(_session, callback) {
      peak = Math.max(peak, ++open);
      callback();
    },
    onClose() {
      open--;
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        const at = Date.now();
        if (failures.count > 0) {
          failures.count--;
          return callback(Object.assign(new Error(failures.message), { responseCode: failures.code }));
        }
        const mail = await simpleParser(Buffer.concat(chunks));
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        messages.push({ mail, envelope, user: session.user as string | undefined, at });
        callback(null, 'queued as fake-1');
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    host: '127.0.0.1',
    port,
    messages,
    get peakConnections() {
      return peak;
    },
    failNext(count, code, message = code >= 500 ? 'mailbox unavailable' : 'try again later') {
      failures = { count, code, message };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
