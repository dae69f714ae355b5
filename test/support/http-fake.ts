import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body as JSON, or as form fields, when it is either. */
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

function parseBody(body: string, type: string | undefined): unknown {
  if (!body) return null;
  if (type?.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(body));
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** A loopback HTTP server speaking whatever provider protocol the routes describe; records every request. */
export async function startHttpFake(): Promise<HttpFake> {
  const requests: RecordedRequest[] = [];
  const routes: Array<{ method: string; pattern: RegExp; answer: Route }> = [];
  const failures: Array<{ prefix: string; count: number; answer: FakeAnswer }> = [];
  const hung = new Set<import('node:http').ServerResponse>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const recorded: RecordedRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, json: parseBody(body, req.headers['content-type']) };
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
      if (answer.hang) return void hung.add(res);
      const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
      res.writeHead(answer.status, { 'content-type': 'application/json', ...answer.headers }).end(text);
    });
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
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
