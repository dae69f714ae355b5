import { createHash, sign } from 'node:crypto';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import type { Credentials, DeliveryProvider, OutboundMessage, ProviderReceipt } from '@herald/domain';
import { ProviderError } from '@herald/domain';
import { defineProvider } from './kit/provider-definition';
import { httpFailure, networkFailure, redact } from './kit/provider-failure';
import { pushFields } from './kit/push-fields';

const PRODUCTION = 'https://api.push.apple.com';
const SANDBOX = 'https://api.sandbox.push.apple.com';
// Apple takes a provider token for up to an hour and refuses new ones more often than every 20 minutes.
const TOKEN_LIFETIME_MS = 40 * 60_000;
// Answers that say the device token will never work again: the engine removes it from the subscriber.
const GONE = new Set(['BadDeviceToken', 'Unregistered', 'DeviceTokenNotForTopic']);

type Answer = { status: number; headers: Record<string, string>; body: string };

/**
 * Apple Push Notification service over HTTP/2 with token-based (.p8) authentication, one request per
 * device token on one kept connection per host. Apple publishes no Node SDK, so this speaks the
 * documented provider API with node:http2 and signs the ES256 provider token with node:crypto.
 * Credentials: `secretKey` the .p8 key, `apiKey` its key id, `projectName` the team id,
 * `applicationId` the bundle id (the topic); `secure: true` sends to production, else the sandbox.
 */
export class ApnsPushProvider implements DeliveryProvider {
  private readonly sessions = new Map<string, ClientHttp2Session>();
  private readonly tokens = new Map<string, { jwt: string; at: number }>();

  constructor(private readonly options: { baseUrl?: string; timeoutMs: number }) {}

  async send(message: OutboundMessage, credentials: Credentials): Promise<ProviderReceipt> {
    const { secretKey, apiKey, projectName, applicationId } = credentials;
    if (!secretKey || !apiKey || !projectName || !applicationId) throw new ProviderError('the integration has no secretKey, apiKey (key id), projectName (team id) or applicationId (bundle id)', false);
    const p = pushFields(message);
    if (!p.tokens.length) throw new ProviderError('no device tokens', false);
    const jwt = this.providerToken(String(secretKey), String(apiKey), String(projectName));
    const secrets = [secretKey, jwt];
    const payload = JSON.stringify({
      aps: { alert: { title: p.title, body: p.body }, ...(p.sound ? { sound: p.sound } : {}), ...(p.badge !== undefined ? { badge: p.badge } : {}) },
      ...(p.data ?? {}),
    });
    const origin = this.options.baseUrl ?? (credentials.secure === true ? PRODUCTION : SANDBOX);
    const headers = { authorization: `bearer ${jwt}`, 'apns-topic': String(applicationId), 'apns-push-type': 'alert', 'apns-priority': '10' };
    const answers = await Promise.all(p.tokens.map((token) => this.post(origin, `/3/device/${encodeURIComponent(token)}`, headers, payload).catch((error: unknown) => error as Error)));
    const invalid: string[] = [];
    let failure: ProviderError | undefined;
    let id: string | undefined;
    answers.forEach((answer, i) => {
      if (answer instanceof Error) return void (failure ??= networkFailure(answer, secrets));
      if (answer.status === 200) return void (id ??= answer.headers['apns-id']);
      const reason = (JSON.parse(answer.body || '{}') as { reason?: string }).reason ?? 'refused';
      if (GONE.has(reason) || answer.status === 410) invalid.push(p.tokens[i]);
      const hint = answer.status === 403 ? ' (check the key, key id, team id and bundle id)' : '';
      const error = httpFailure(answer.status, `APNs ${reason}${hint}`, answer.body, secrets, answer.headers['retry-after']);
      failure = failure?.retryable === false ? failure : new ProviderError(error.message, error.retryable, error.raw, { ...error.extra, code: reason });
    });
    const raw = redact(JSON.stringify({ sent: answers.filter((a) => !(a instanceof Error) && a.status === 200).length, invalid: invalid.length }), secrets);
    if (id) return { providerMessageId: id, raw, invalidDeviceTokens: invalid };
    const f = failure ?? new ProviderError('APNs gave no answer', true);
    // A token Apple calls gone is never retried, whatever else failed alongside it.
    const retryable = f.retryable && invalid.length < p.tokens.length;
    throw new ProviderError(f.message, retryable, f.raw, { ...f.extra, invalidDeviceTokens: invalid });
  }

  /** The ES256 provider token for a key and team, made again only when it is 40 minutes old. */
  private providerToken(key: string, keyId: string, teamId: string): string {
    const cacheKey = createHash('sha256').update(`${keyId}\n${teamId}\n${key}`).digest('hex');
    const cached = this.tokens.get(cacheKey);
    if (cached && Date.now() - cached.at < TOKEN_LIFETIME_MS) return cached.jwt;
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const unsigned = `${part({ alg: 'ES256', kid: keyId })}.${part({ iss: teamId, iat: Math.floor(Date.now() / 1000) })}`;
    let signature: string;
    try {
      signature = sign('sha256', Buffer.from(unsigned), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url');
    } catch {
      throw new ProviderError('the integration secretKey is not an APNs .p8 private key', false);
    }
    const jwt = `${unsigned}.${signature}`;
    this.tokens.set(cacheKey, { jwt, at: Date.now() });
    return jwt;
  }

  private post(origin: string, path: string, headers: Record<string, string>, body: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const stream = this.session(origin).request({ ':method': 'POST', ':path': path, 'content-type': 'application/json', ...headers });
      const timer = setTimeout(() => {
        stream.close(constants.NGHTTP2_CANCEL);
        reject(Object.assign(new Error(`no answer from APNs within ${this.options.timeoutMs} ms`), { code: 'ETIMEDOUT' }));
      }, this.options.timeoutMs);
      const chunks: Buffer[] = [];
      let answer: Omit<Answer, 'body'> | undefined;
      stream.on('response', (h) => (answer = { status: Number(h[':status']), headers: Object.fromEntries(Object.entries(h).map(([k, v]) => [k, String(v)])) }));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        clearTimeout(timer);
        if (answer) resolve({ ...answer, body: Buffer.concat(chunks).toString('utf8') });
        else reject(Object.assign(new Error('APNs closed the stream without an answer'), { code: 'ECONNRESET' }));
      });
      stream.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      stream.end(body);
    });
  }

  /** The kept HTTP/2 connection to a host, opened again once it closed or failed. */
  private session(origin: string): ClientHttp2Session {
    const existing = this.sessions.get(origin);
    if (existing && !existing.closed && !existing.destroyed) return existing;
    const session = connect(origin);
    session.on('error', () => this.sessions.delete(origin));
    session.on('close', () => this.sessions.delete(origin));
    session.unref();
    this.sessions.set(origin, session);
    return session;
  }

  async close(): Promise<void> {
    for (const session of this.sessions.values()) session.close();
    this.sessions.clear();
  }
}

export const providers = [
  defineProvider({ id: 'apns', through: 'HTTP/2 provider API (`node:http2`, ES256 token auth)', create: (kit) => new ApnsPushProvider({ baseUrl: kit.endpoint, timeoutMs: kit.timeoutMs }) }),
];
