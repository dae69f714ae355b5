import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttp2Server, type Http2ServerRequest, type Http2ServerResponse, type Http2Session } from 'node:http2';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as JSON, or as form fields (url-encoded or multipart), when it is one of them. */
  json: any;
}

export interface FakeAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (the client's timeout fires). */
  hang?: boolean;
}

/** A route's answer to a recorded request. */
export type Route = (request: RecordedRequest) => FakeAnswer;

export interface HttpFake {
  url: string;
  requests: RecordedRequest[];
  /** Requests to a path (prefix match), in order. */
  to(pathPrefix: string): RecordedRequest[];
  route(method: string, pathPattern: RegExp, answer: Route): void;
  /** The next `count` requests matching the path answer this instead of the route (503, 429 with Retry-After, a hang...); replaces the path's previous plan. */
  failNext(pathPrefix: string, count: number, answer: FakeAnswer): void;
  close(): Promise<void>;
}

/** multipart/form-data as fields (repeated ones as arrays) and files as `{ filename, contentType, content }` (base64). */
function parseMultipart(raw: Buffer, type: string): Record<string, unknown> {
  const boundary = /boundary="?([^";]+)"?/.exec(type)?.[1] ?? '';
  const fields: Record<string, unknown> = {};
  for (const part of raw.toString('latin1').split(`--${boundary}`).slice(1, -1)) {
    const [head, ...rest] = part.replace(/^\r\n/, '').split('\r\n\r\n');
    const content = rest.join('\r\n\r\n').replace(/\r\n$/, '');
    const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(head)?.[1];
    const value = filename === undefined
      ? Buffer.from(content, 'latin1').toString('utf8')
      : { filename, contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1] ?? '', content: Buffer.from(content, 'latin1').toString('base64') };
    const previous = fields[name];
    fields[name] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
  }
  return fields;
}

function parseBody(body: string, type: string | undefined, raw: Buffer): unknown {
  if (!body) return null;
  if (type?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  if (type?.includes('multipart/form-data')) return parseMultipart(raw, type);
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/**
 * A loopback HTTP server speaking whatever provider protocol the routes describe; records every
 * request. `http2` serves HTTP/2 without TLS (h2c), for services that speak only HTTP/2 (APNs).
 */
export async function startHttpFake(options: { http2?: boolean } = {}): Promise<HttpFake> {
  const requests: RecordedRequest[] = [];
  const routes: Array<{ method: string; pattern: RegExp; answer: Route }> = [];
  const failures: Array<{ prefix: string; count: number; answer: FakeAnswer }> = [];
  const hung = new Set<{ destroy(): void }>();
  const handle = (req: IncomingMessage | Http2ServerRequest, res: ServerResponse | Http2ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: parseBody(body, req.headers['content-type'], raw) };
      requests.push(recorded);
      const failure = failures.find((f) => recorded.path.startsWith(f.prefix) && f.count > 0);
      let answer: FakeAnswer;
      if (failure) {
        failure.count--;
        answer = failure.answer;
      } else {
        const route = routes.find((r) => r.method === recorded.method && r.pattern.test(recorded.path));
        answer = route ? route.answer(recorded) : { status: 404, body: { error: `no fake route for ${recorded.method} ${recorded.path}` } };
      }
      if (answer.hang) return void hung.add('stream' in res ? res.stream : res);
      const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers });
      res.end(text);
    });
  };
  const sessions = new Set<Http2Session>();
  const server = options.http2 ? createHttp2Server(handle) : createServer(handle);
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    session.on('close', () => sessions.delete(session));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    to: (prefix) => requests.filter((r) => r.path.startsWith(prefix)),
    route: (method, pattern, answer) => void routes.push({ method, pattern, answer }),
    failNext: (prefix, count, answer) => {
      // A new failure plan for a path replaces the previous one (count 0 clears it).
      failures.splice(0, failures.length, ...failures.filter((f) => f.prefix !== prefix), { prefix, count, answer });
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hung) res.destroy();
        for (const session of sessions) session.destroy();
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
