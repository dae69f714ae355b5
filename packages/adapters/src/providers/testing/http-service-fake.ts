import { startHttpFake, type FakeAnswer, type HttpFake, type RecordedRequest } from '../../../../../test/support/http-fake';
import type { InjectedFailure, RunningProviderFake, Target, WireMessage } from './provider-fake';

/** Recipients every fake refuses the way its service refuses a malformed or unknown one. */
export const INVALID = { email: 'nobody@invalid', phone: '+0000000000', chatChannel: 'C-NO-SUCH-CHANNEL', deviceToken: 'stale-token' };
const isInvalid = (to: string) => Object.values(INVALID).includes(to);

export interface HttpServiceSpec {
  /** The send route, and the path prefix failures are injected on. */
  method?: string;
  path: RegExp;
  prefix: string;
  /** Whether the request carries the credentials of the fixture's target (its key, its signature). */
  authorized(request: RecordedRequest): boolean;
  /** The id the service gives its n-th accepted send, in the service's own format; `msg-<n>` when omitted. */
  messageId?(n: number): string;
  /** The service's answer to an accepted send that it gave `id`. */
  accept(request: RecordedRequest, id: string): FakeAnswer;
  unauthorized(request: RecordedRequest): FakeAnswer;
  invalidRecipient(request: RecordedRequest): FakeAnswer;
  serverError: FakeAnswer;
  /** Must carry `retry-after: 7` where the service sends one. */
  rateLimited: FakeAnswer;
  /** What the request carries, in the channel's terms. */
  wire(request: RecordedRequest): WireMessage;
  /** Serve HTTP/2 without TLS (h2c), for services that speak nothing else (APNs). */
  http2?: boolean;
  /** Other routes the SDK calls first (an OAuth token, say). */
  extraRoutes?(fake: HttpFake): void;
}

export interface HttpServiceTargets {
  /** The HERALD_PROVIDER_ENDPOINTS entry, given the fake's base URL; omit when credentials carry the URL. */
  endpoint?(url: string): string;
  target(url: string): Target;
  badCredentials(url: string): Target;
  invalidRecipient(url: string): Target;
}

let ids = 0;

/** Error answers echo the request's headers, as a careless service might: redaction is then the provider's job. */
function echoing(answer: FakeAnswer, request: RecordedRequest): FakeAnswer {
  if (!answer.body || typeof answer.body !== 'object' || Array.isArray(answer.body)) return answer;
  return { ...answer, body: { ...(answer.body as object), request: { headers: request.headers } } };
}

/** A loopback HTTP fake of one provider's API that answers like the service: it checks the key and the recipient itself. */
export async function startHttpService(spec: HttpServiceSpec, targets: HttpServiceTargets): Promise<RunningProviderFake> {
  const fake = await startHttpFake({ http2: spec.http2 });
  const accepted: Array<{ id: string; wire: WireMessage }> = [];
  spec.extraRoutes?.(fake);
  fake.route(spec.method ?? 'POST', spec.path, (request) => {
    if (!spec.authorized(request)) return echoing(spec.unauthorized(request), request);
    const wire = spec.wire(request);
    if (wire.to.some(isInvalid)) return echoing(spec.invalidRecipient(request), request);
    const n = ++ids;
    const id = spec.messageId?.(n) ?? `msg-${n}`;
    accepted.push({ id, wire });
    return spec.accept(request, id);
  });
  const failures: Record<InjectedFailure, () => FakeAnswer> = {
    'server-error': () => spec.serverError,
    'rate-limited': () => spec.rateLimited,
    hang: () => ({ status: 200, hang: true }),
  };
  return {
    endpoint: targets.endpoint?.(fake.url),
    target: targets.target(fake.url),
    badCredentials: targets.badCredentials(fake.url),
    invalidRecipient: targets.invalidRecipient(fake.url),
    failNext: (failure) => fake.failNext(spec.prefix, 1, failures[failure]()),
    lastId: () => accepted.at(-1)?.id,
    lastWire: () => accepted.at(-1)?.wire,
    accepted: () => accepted.length,
    close: () => fake.close(),
  };
}
