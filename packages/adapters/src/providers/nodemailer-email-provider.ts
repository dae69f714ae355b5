import { createHash } from 'node:crypto';
import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt, SendOptions } from '@herald/domain';
import { LRUCache } from 'lru-cache';
import type { Transporter } from 'nodemailer';
import { ProviderError } from '@herald/domain';
import { emailFields } from './kit/email-fields';
import { defineProvider } from './kit/provider-definition';
import { guardedAddress, isNetworkError, lazy, networkFailure, redact } from './kit/provider-failure';

const sdk = lazy(async () => (await import('nodemailer')).default);

const TIMEOUT_MS = 15_000;
// nodemailer's own default pool size, for integrations that set no maxConcurrentSends.
const DEFAULT_CONNECTIONS = 5;

/** SMTP reply codes that mean "this will not work however often you try" (RFC 5321: 5xx), and auth failures. */
function smtpFailure(error: unknown, secrets: unknown[]): ProviderError {
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string; command?: string };
  if (!e.responseCode && (isNetworkError(e) || e.code === 'ETIMEDOUT' || e.code === 'ECONNECTION' || e.code === 'ESOCKET')) return networkFailure(e, secrets);
  const permanent = e.code === 'EAUTH' || e.code === 'EENVELOPE' || (e.responseCode !== undefined && e.responseCode >= 500);
  const what = e.code === 'EAUTH' ? 'authentication failed (check the integration user and password)' : (e.response ?? e.message ?? 'failed');
  return new ProviderError(`SMTP ${e.responseCode ?? e.code ?? 'error'}: ${redact(what, secrets)}`, !permanent, redact(JSON.stringify({ code: e.code, responseCode: e.responseCode, command: e.command, response: e.response }), secrets), {
    code: e.responseCode ? String(e.responseCode) : e.code,
  });
}

/**
 * nodemailer over SMTP: host, port, secure, user/password, requireTls/ignoreTls and tlsOptions from
 * the integration. The host is resolved and checked against private networks before connecting.
 */
export class NodemailerEmailProvider implements DeliveryProvider {
  // One pool of connections per SMTP account (server, login, TLS settings), kept between sends.
  private readonly pools = new LRUCache<string, Transporter>({ max: 100, dispose: (transport) => transport.close() });
  private readonly accounts = new WeakMap<Credentials, string>();

  constructor(private readonly options: { allowPrivateNetworks: boolean; timeoutMs?: number }) {}

  async send(message: OutboundMessage, credentials: Credentials, sendOptions: SendOptions = {}): Promise<ProviderReceipt> {
    const { host, port, password } = credentials;
    if (!host || !port) throw new ProviderError('the integration has no SMTP host or port', false);
    const secrets = [password];
    const address = await guardedAddress(host, this.options.allowPrivateNetworks);
    const transport = await this.pool(address, credentials, sendOptions.maxConnections ?? DEFAULT_CONNECTIONS);
    const f = emailFields(message, credentials);
    try {
      const info = await transport.sendMail({
        from: f.senderName && f.from ? { name: f.senderName, address: f.from } : f.from,
        to: f.to,
        subject: f.subject,
        html: f.html,
        text: f.text,
        replyTo: f.replyTo,
        cc: f.cc,
        bcc: f.bcc,
        headers: { ...(f.headers ?? {}), 'X-Herald-Transaction-Id': message.transactionId },
        attachments: f.attachments,
      });
      if (info.rejected?.length && !info.accepted?.length) {
        throw new ProviderError(`SMTP server rejected the recipient ${message.to.email}`, false, redact(info.response, secrets));
      }
      return { providerMessageId: info.messageId, raw: redact(JSON.stringify({ response: info.response, accepted: info.accepted, rejected: info.rejected }), secrets) };
    } catch (error) {
      throw error instanceof ProviderError ? error : smtpFailure(error, secrets);
    }
  }

  /** The account's pooled transport with `maxConnections` connections (a new pool when that changes). */
  private async pool(address: string, credentials: Credentials, maxConnections: number): Promise<Transporter> {
    const { host, port, user, password } = credentials;
    // An integration's credentials object lives until its integration is read again: its hash is
    // worked out once, not on every send.
    let account = this.accounts.get(credentials);
    if (!account) {
      account = createHash('sha256').update(JSON.stringify([host, port, user, password, credentials.secure, credentials.requireTls, credentials.ignoreTls, credentials.tlsOptions])).digest('hex');
      this.accounts.set(credentials, account);
    }
    const key = `${account} ${address} ${maxConnections}`;
    const cached = this.pools.get(key);
    if (cached) return cached;
    const timeout = this.options.timeoutMs ?? TIMEOUT_MS;
    const nodemailer = await sdk();
    // Sends that arrived together all waited for the SDK: the first to get here makes the pool, the
    // others take it. A second pool under the same key would close the first (the cache's dispose)
    // under the sends it carries.
    const made = this.pools.get(key);
    if (made) return made;
    const transport = nodemailer.createTransport({
      pool: true,
      maxConnections,
      // A connection is renewed after this many messages (nodemailer's default is 100).
      maxMessages: 1_000,
      host: address,
      port: Number(port),
      secure: credentials.secure ?? Number(port) === 465,
      requireTLS: credentials.requireTls === true,
      ignoreTLS: credentials.ignoreTls === true,
      auth: user ? { user, pass: password ?? '' } : undefined,
      // The certificate is checked against the configured name, not the address connected to.
      tls: { servername: host, ...(credentials.tlsOptions ?? {}) },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    this.pools.set(key, transport);
    return transport;
  }

  /** Closes every pooled connection. */
  async close(): Promise<void> {
    this.pools.clear();
  }
}

export const providers = [
  defineProvider({
    id: 'nodemailer',
    through: 'SMTP (`nodemailer`)',
    create: (kit) => new NodemailerEmailProvider({ allowPrivateNetworks: kit.allowPrivateNetworks, timeoutMs: kit.timeoutMs }),
  }),
];
