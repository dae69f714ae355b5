// The bare send loop of the email-send bench, in its own process as Herald is: the official client
// sends `count` emails as fast as it can over `connections` connections, and nothing else.
// Usage: node email-bare-loop.mjs <smtp|sendgrid> <host:port | base URL> <count> <connections> [apiKey]
// It loads its client, prints `ready`, and starts on the first line of stdin, so the parent's clock
// starts when sending does (not while Node and the SDK load); the parent times the last arrival.
import { createInterface } from 'node:readline';

const [kind, target, countArg, connectionsArg, apiKey] = process.argv.slice(2);
const count = Number(countArg);
const connections = Number(connectionsArg);
// What Herald's email step renders for each subscriber, and the header it adds.
const email = (i) => ({
  to: `mail-${i}@example.com`,
  subject: 'News for you',
  html: `<p>Hello User${i}, here is this week's news.</p>`,
  headers: { 'X-Herald-Transaction-Id': `bare-${i}` },
});

async function smtpLoop() {
  const nodemailer = (await import('nodemailer')).default;
  const [host, port] = target.split(':');
  // Herald's pool options (nodemailer-email-provider.ts), with as many connections.
  const transport = nodemailer.createTransport({ pool: true, maxConnections: connections, maxMessages: 1_000, host, port: Number(port), secure: false });
  return async () => {
    // The pool queues what its connections cannot take yet: every email is handed over at once.
    await Promise.all(Array.from({ length: count }, (_, i) => transport.sendMail({ from: { name: 'Shop', address: 'shop@herald.test' }, ...email(i + 1) })));
    transport.close();
  };
}

async function sendGridLoop() {
  const { MailService } = (await import('@sendgrid/mail')).default;
  const mail = new MailService();
  mail.setApiKey(apiKey);
  mail.client.setDefaultRequest('baseUrl', target);
  return async () => {
    // `connections` senders, each sending its next email once its last one is answered (keep-alive).
    let next = 0;
    const sender = async () => {
      while (next < count) {
        const { to, subject, html, headers } = email(++next);
        await mail.send({ from: { email: 'shop@herald.test', name: 'Shop' }, to, subject, html, headers });
      }
    };
    await Promise.all(Array.from({ length: connections }, sender));
  };
}

const run = kind === 'smtp' ? await smtpLoop() : kind === 'sendgrid' ? await sendGridLoop() : null;
if (!run) throw new Error(`unknown kind ${kind}: smtp or sendgrid`);
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await new Promise((resolve) => lines.once('line', resolve));
lines.close();
const cpu = process.cpuUsage();
await run();
const used = process.cpuUsage(cpu);
// The CPU seconds the sending took, for the parent's per-email figure.
process.stdout.write(`done ${(used.user + used.system) / 1e6}\n`);
