import type { Context } from 'hono';
import type { TrustProxy } from '../config';

/** What a request says about where it came from: its URL (scheme and Host as received), headers and TCP peer. */
export interface RequestFacts {
  url: string;
  header(name: string): string | undefined;
  peer: string;
}

export function requestFacts(c: Context): RequestFacts {
  const incoming = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming;
  return { url: c.req.url, header: (name) => c.req.header(name), peer: unmapped(incoming?.socket?.remoteAddress ?? '') };
}

/** `::ffff:10.0.0.1` is 10.0.0.1: one client, one address, whichever socket family it came in on. */
function unmapped(address: string): string {
  return address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

const firstValue = (header: string | undefined) => header?.split(',')[0]?.trim() || undefined;

/**
 * Where a request came from and which origin it was sent to, believing X-Forwarded-* only from a
 * proxy the operator trusts (HERALD_TRUST_PROXY): anyone else could write them.
 */
export class RequestOrigins {
  constructor(private readonly policy: { trustProxy: TrustProxy; publicOrigin?: string }) {}

  private trusted(facts: RequestFacts): boolean {
    const { trustProxy } = this.policy;
    return trustProxy === true || (Array.isArray(trustProxy) && trustProxy.includes(facts.peer));
  }

  /**
   * The client's address: the TCP peer; behind trusted proxies, the nearest X-Forwarded-For address
   * that is not one of them (with HERALD_TRUST_PROXY=true, one proxy: the last address it added).
   */
  clientAddress(facts: RequestFacts): string {
    if (!this.trusted(facts)) return facts.peer;
    const chain = (facts.header('x-forwarded-for') ?? '').split(',').map((a) => unmapped(a.trim())).filter(Boolean);
    const { trustProxy } = this.policy;
    if (trustProxy === true) return chain[chain.length - 1] ?? facts.peer;
    for (let i = chain.length - 1; i >= 0; i--) if (!(trustProxy as string[]).includes(chain[i])) return chain[i];
    return chain[0] ?? facts.peer;
  }

  /** Whether the browser reached this service over HTTPS: TLS on this socket, or a trusted proxy's X-Forwarded-Proto. */
  isHttps(facts: RequestFacts): boolean {
    if (this.policy.publicOrigin?.startsWith('https:')) return true;
    if (this.trusted(facts)) {
      const proto = firstValue(facts.header('x-forwarded-proto'));
      if (proto) return proto.toLowerCase() === 'https';
    }
    return new URL(facts.url).protocol === 'https:';
  }

  /** The origin browsers address this service by: HERALD_PUBLIC_URL's, else the scheme and Host of the request. */
  ownOrigin(facts: RequestFacts): string {
    if (this.policy.publicOrigin) return this.policy.publicOrigin;
    const url = new URL(facts.url);
    const host = (this.trusted(facts) && firstValue(facts.header('x-forwarded-host'))) || url.host;
    return `${this.isHttps(facts) ? 'https' : 'http'}://${host}`.toLowerCase();
  }

  /**
   * The CSRF check of a request a browser may have sent with the session cookie: its Origin (or, when
   * a browser sent none, its Referer's origin) must be this service's own origin.
   */
  sameOrigin(facts: RequestFacts): boolean {
    const origin = facts.header('origin') ?? refererOrigin(facts.header('referer'));
    return origin !== undefined && origin.toLowerCase() === this.ownOrigin(facts);
  }
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
