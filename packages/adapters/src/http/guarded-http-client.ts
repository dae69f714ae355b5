import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress, OutboundRefusedError, type HttpClient, type HttpRequest, type HttpResponse } from '@herald/domain';

const MAX_RESPONSE_BYTES = 1024 * 1024;

// The ranges refused are the domain's rule, which the in-memory double applies too.
export { isPrivateAddress };

/**
 * node:http with a DNS lookup that refuses private addresses: the address checked is the address
 * connected to, so a hostname that resolves (or re-resolves) to an internal IP is refused too.
 * node:http rejects with the error the lookup gave, so that refusal keeps its type.
 */
export class GuardedHttpClient implements HttpClient {
  constructor(private readonly allowPrivateNetworks: boolean) {}

  request(req: HttpRequest): Promise<HttpResponse> {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return Promise.reject(new OutboundRefusedError(`'${req.url}' is not a valid URL`));
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new OutboundRefusedError(`only http and https URLs are allowed, got ${url.protocol}`));
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (!this.allowPrivateNetworks && isIP(host) && isPrivateAddress(host)) {
      return Promise.reject(new OutboundRefusedError(`refused to call ${host}: private, loopback and link-local addresses are not allowed (HERALD_ALLOW_PRIVATE_NETWORKS)`));
    }
    const lookup: LookupFunction = (hostname, options, callback) => {
      dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 4);
        const list = addresses as LookupAddress[];
        const blocked = !this.allowPrivateNetworks && list.find((a) => isPrivateAddress(a.address));
        if (blocked) {
          return callback(new OutboundRefusedError(`refused to call ${hostname} (${blocked.address}): private, loopback and link-local addresses are not allowed`), '', 4);
        }
        if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
        callback(null, list[0].address, list[0].family);
      });
    };
    const transport = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const request = transport.request(url, { method: req.method.toUpperCase(), headers: req.headers, lookup }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) return request.destroy(new Error('response larger than 1 MB'));
          chunks.push(chunk);
        });
        res.on('end', () => {
          const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v ?? '')]));
          resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks).toString('utf8') });
        });
        res.on('error', reject);
      });
      // A deadline for the whole exchange, not just idle time: a server trickling bytes is cut off too.
      const deadline = setTimeout(() => request.destroy(new Error(`no complete response within ${req.timeoutMs} ms`)), req.timeoutMs);
      request.on('close', () => clearTimeout(deadline));
      request.on('error', reject);
      if (req.body !== undefined) request.write(req.body);
      request.end();
    });
  }
}
