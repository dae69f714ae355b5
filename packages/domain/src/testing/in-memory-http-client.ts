import { isIP } from 'node:net';
import { OutboundRefusedError, type HttpClient, type HttpRequest, type HttpResponse } from '../ports/http-client';
import { isPrivateAddress } from '../rules/private-address';

/** What a served handler sees of a request. */
export interface ServedRequest {
  method: string;
  /** Path with its query string. */
  path: string;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

export type Handler = (request: ServedRequest) => Promise<HttpResponse> | HttpResponse;

/**
 * The HttpClient double: requests go to handlers served under an origin, in process, with the
 * guarded client's rules for what it refuses (a URL that is not http(s), a literal private address
 * unless allowed) and its deadline. Hostnames are not resolved: a handler's origin is what it is
 * served under. `http-client-contract.ts` holds it to the guarded node:http client's behaviour.
 */
export class InMemoryHttpClient implements HttpClient {
  constructor(
    private readonly allowPrivateNetworks = false,
    /** Handlers by origin; clients sharing the map reach the same servers. */
    readonly origins = new Map<string, Handler>(),
  ) {}

  /** Serves `handler` under a new loopback origin; its base URL. */
  serve(handler: Handler): string {
    const origin = `http://127.0.0.1:${40_000 + this.origins.size}`;
    this.origins.set(origin, handler);
    return origin;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      throw new OutboundRefusedError(`'${req.url}' is not a valid URL`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError(`only http and https URLs are allowed, got ${url.protocol}`);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivateNetworks && isIP(host) && isPrivateAddress(host)) {
      throw new OutboundRefusedError(`refused to call ${host}: private, loopback and link-local addresses are not allowed`);
    }
    const handler = this.origins.get(url.origin);
    if (!handler) throw new Error(`connect ECONNREFUSED ${url.host}`);
    const served: ServedRequest = {
      method: req.method.toUpperCase(),
      path: `${url.pathname}${url.search}`,
      headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v])),
      body: typeof req.body === 'string' ? req.body : req.body ? new TextDecoder().decode(req.body) : '',
    };
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no complete response within ${req.timeoutMs} ms`)), req.timeoutMs);
    });
    try {
      const response = await Promise.race([Promise.resolve(handler(served)), deadline]);
      return { status: response.status, headers: Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), v])), body: response.body };
    } finally {
      clearTimeout(timer);
    }
  }
}
