import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

// Lean loopback receivers for the email-send bench: they count arrivals, recipients and open
// connections and nothing else. The contract fakes (packages/adapters/src/providers/fakes) parse every
// message in full and keep every request: at hundreds of emails a second the receiver would then be
// what is measured, for Herald and the bare loop alike.

export interface EmailReceiver {
  /** `performance.now()` of each accepted email, in arrival order (this process's clock). */
  readonly arrivals: number[];
  /** The recipient of each accepted email, in arrival order. */
  readonly recipients: string[];
  /** Most connections carrying this run's emails open at once (since the last reset). */
  readonly peakConnections: number;
  /** Starts a new run: forgets what arrived. */
  reset(): void;
  /** Resolves once `count` emails have arrived since the last reset. */
  received(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * What arrived since the last reset, and the connections that carried it: a connection counts from its
 * first email of the run until it closes, so idle connections of an earlier run (a pool's) do not.
 */
class Tally {
  arrivals: number[] = [];
  recipients: string[] = [];
  peak = 0;
  private run = 0;
  private carrying = 0;
  private readonly connections = new Map<unknown, number>();

  arrived(connection: unknown, recipient: string): void {
    this.arrivals.push(performance.now());
    this.recipients.push(recipient);
    if (this.connections.get(connection) === this.run) return;
    this.connections.set(connection, this.run);
    this.peak = Math.max(this.peak, ++this.carrying);
  }

  closed(connection: unknown): void {
    if (this.connections.get(connection) === this.run) this.carrying--;
    this.connections.delete(connection);
  }

  reset(): void {
    this.arrivals = [];
    this.recipients = [];
    this.run++;
    this.carrying = 0;
    this.peak = 0;
  }
}

function tallied(tally: Tally, close: () => Promise<void>): EmailReceiver {
  return {
    get arrivals() {
      return tally.arrivals;
    },
    get recipients() {
      return tally.recipients;
    },
    get peakConnections() {
      return tally.peak;
    },
    reset: () => tally.reset(),
    async received(count, timeoutMs = 600_000) {
      const deadline = Date.now() + timeoutMs;
      while (tally.arrivals.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${tally.arrivals.length} of ${count} emails arrived in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close,
  };
}

/** A real SMTP server (smtp-server) on loopback taking any sender and recipient, without AUTH or TLS. */
export async function startSmtpReceiver(): Promise<EmailReceiver & { host: string; port: number }> {
  const tally = new Tally();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    // The pools send up to 1,000 messages on one connection.
    maxClients: 10_000,
    onClose(session) {
      tally.closed(session.id);
    },
    onData(stream, session, callback) {
      stream.on('end', () => {
        tally.arrived(session.id, session.envelope.rcptTo[0]?.address ?? '');
        callback(null, 'queued');
      });
      stream.resume();
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return Object.assign(tallied(tally, close), { host: '127.0.0.1', port });
}

export const SENDGRID_KEY = 'SG.bench-key';

/**
 * SendGrid's v3 Mail Send on loopback, as its SDK sees it: Bearer key checked, 202 with
 * X-Message-Id for an accepted message.
 */
export async function startSendGridReceiver(): Promise<EmailReceiver & { url: string }> {
  const tally = new Tally();
  let ids = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v3/mail/send') return void res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${SENDGRID_KEY}`) return void res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":[{"message":"unauthorized"}]}');
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { personalizations: Array<{ to: Array<{ email: string }> }> };
      tally.arrived(req.socket, body.personalizations[0]?.to[0]?.email ?? '');
      res.writeHead(202, { 'x-message-id': `sg-${++ids}` }).end();
    });
  });
  server.on('connection', (socket: Socket) => socket.once('close', () => tally.closed(socket)));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return Object.assign(tallied(tally, close), { url });
}
