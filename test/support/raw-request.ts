import { request } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/**
 * One HTTP request sent exactly as given: fetch would normalize `..` and percent-escapes in the
 * path and refuse some bodies; hostile-input tests need the bytes to reach the server unchanged.
 */
export function rawRequest(base: string, options: { method: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawResponse> {
  const url = new URL(base);
  // Node frames a DELETE body only when told its length.
  const length = options.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(options.body)) };
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, method: options.method, path: options.path, headers: { connection: 'keep-alive', ...length, ...options.headers } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}
