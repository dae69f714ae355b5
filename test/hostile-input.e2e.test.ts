import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath, operationsOf, ResponseValidator, type OpenApiDocument, type Operation } from './support/openapi';
import { rawRequest, type RawResponse } from './support/raw-request';
import { startService, type TestService } from './support/service';

// Hand-made hostile cases, sent to every route of the running service: none may
// answer 5xx, every error leaves in the one error shape, and no error body echoes unbounded input.
let svc: TestService;
let doc: OpenApiDocument;
let operations: Operation[];
let validator: ResponseValidator;

beforeAll(async () => {
  svc = await startService();
  doc = (await (await fetch(`${svc.url}/openapi.json`)).json()) as OpenApiDocument;
  operations = operationsOf(doc);
  validator = new ResponseValidator(doc);
  await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'known' } });
});
afterAll(() => svc?.dispose());

const NUL_JSON = '"a\\u0000b"';
const deep = (levels: number) => `{"payload":${'['.repeat(levels)}${']'.repeat(levels)}}`;

function send(method: string, path: string, init: { headers?: Record<string, string>; body?: string } = {}) {
  return rawRequest(svc.url, { method, path, headers: { authorization: `ApiKey ${svc.apiKey}`, ...init.headers }, body: init.body });
}
const json = (method: string, path: string, body: string) => send(method, path, { headers: { 'content-type': 'application/json' }, body });

/** The error shape every 4xx shares; the problem, or null. */
function shapeProblem(res: RawResponse): string | null {
  let body: any;
  try {
    body = JSON.parse(res.text);
  } catch {
    return `not JSON: ${res.text.slice(0, 80)}`;
  }
  if (body.statusCode !== res.status) return `statusCode ${body.statusCode} in a ${res.status}`;
  for (const key of ['message', 'error', 'code']) if (typeof body[key] !== 'string') return `no string ${key}`;
  return null;
}

async function fieldOf(res: RawResponse) {
  const body = JSON.parse(res.text);
  return { status: res.status, code: body.code, fields: Object.keys(body.errors ?? {}) };
}

describe('NUL and unpaired surrogates: one rule for the whole API, a 422 naming the field', () => {
  it.each([
    ['a path id', 'GET', '/v2/subscribers/%00', undefined, 'subscriberId'],
    ['a path id with text around it', 'DELETE', '/v2/subscribers/a%00b', undefined, 'subscriberId'],
    ['a query filter', 'GET', '/v1/notifications?subscriberIds=%00', undefined, 'subscriberIds.0'],
    ['a cursor', 'GET', '/v2/subscribers?after=%00', undefined, 'after'],
    ['a body string', 'POST', '/v2/subscribers', `{"subscriberId":${NUL_JSON}}`, 'subscriberId'],
    ['a string inside subscriber data', 'POST', '/v2/subscribers', `{"subscriberId":"n1","data":{"x":${NUL_JSON}}}`, 'data.x'],
    ['a key inside subscriber data', 'PATCH', '/v2/subscribers/known', `{"data":{"k\\u0000":1}}`, 'data.k\\u0000'],
    ['the trigger payload', 'POST', '/v1/events/trigger', `{"name":"w","to":"known","payload":{"note":${NUL_JSON}}}`, 'payload.note'],
    ['an unpaired surrogate (jsonb refuses it)', 'POST', '/v1/events/trigger', '{"name":"w","to":"\\ud800"}', 'to'],
    ['a trigger recipient', 'POST', '/v1/events/trigger', `{"name":"w","to":[{"subscriberId":"s","data":{"a":[${NUL_JSON}]}}]}`, 'to.0.data.a.0'],
  ])('%s', async (_name, method, path, body, field) => {
    const res = body === undefined ? await send(method, path) : await json(method, path, body);
    expect(await fieldOf(res)).toEqual({ status: 422, code: 'VALIDATION_FAILED', fields: [field] });
  });

  it('accepts the six characters \\u0000 written as text (an escaped backslash), and stores them as given', async () => {
    const res = await json('POST', '/v2/subscribers', '{"subscriberId":"esc","firstName":"\\\\u0000"}');
    expect(res.status).toBe(201);
    expect(JSON.parse(res.text).data.firstName).toBe('\\u0000');
  });
});

describe('size and depth are bounded before anything recurses over the body', () => {
  it('refuses 20,000 levels of nesting with a 422, without echoing it', async () => {
    const res = await json('POST', '/v1/events/trigger', deep(20_000));
    expect(await fieldOf(res)).toEqual({ status: 422, code: 'VALIDATION_FAILED', fields: ['body'] });
    expect(res.text.length).toBeLessThan(1_000);
    // 64 levels is the limit; a payload that deep is still validated as usual.
    expect((await json('POST', '/v1/events/trigger', deep(63))).status).toBe(422);
    expect(JSON.parse((await json('POST', '/v1/events/trigger', deep(63))).text).errors).not.toHaveProperty('body');
  });

  it('cuts long values shown in an error body', async () => {
    const res = await json('POST', '/v2/subscribers', JSON.stringify({ subscriberId: 'long', email: 'x'.repeat(400_000) }));
    expect(await fieldOf(res)).toEqual({ status: 422, code: 'VALIDATION_FAILED', fields: ['email'] });
    expect(res.text.length).toBeLessThan(2_000);
  });
});

describe('framework errors share the one error shape', () => {
  it.each([
    ['malformed JSON', () => json('POST', '/v2/subscribers', '{"subscriberId":'), 400, 'MALFORMED_JSON'],
    ['a body over 512 KB', () => json('POST', '/v2/subscribers', JSON.stringify({ subscriberId: 'x'.repeat(1 << 20) })), 413, 'PAYLOAD_TOO_LARGE'],
    ['a body that is not JSON', () => send('POST', '/v2/subscribers', { headers: { 'content-type': 'text/plain' }, body: 'hi' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    ['an unknown route', () => send('GET', '/v3/nothing'), 404, 'ROUTE_NOT_FOUND'],
    ['a method the path does not take', () => send('PUT', '/v2/subscribers'), 405, 'METHOD_NOT_ALLOWED'],
    ['a missing API key', () => rawRequest(svc.url, { method: 'GET', path: '/v2/subscribers' }), 401, 'UNAUTHORIZED'],
  ])('%s', async (_name, call, status, code) => {
    const res = await call();
    expect(shapeProblem(res)).toBeNull();
    expect([res.status, JSON.parse(res.text).code]).toEqual([status, code]);
  });

  it.each([
    ['a URL over 16 KB', `GET /v2/subscribers/${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`, 431, 'HEADERS_TOO_LARGE'],
    ['a malformed header', 'GET /v2/subscribers HTTP/1.1\r\nHost: a\r\nBad Header: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
  ])('answers %s refused by the HTTP parser in the same shape', async (_name, request, status, code) => {
    const { port } = new URL(svc.url);
    const text = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(request));
      socket.on('data', (chunk) => (answer += chunk.toString()));
      socket.on('end', () => resolve(answer));
      socket.on('error', reject);
    });
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe(`HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}`);
    expect(JSON.parse(body)).toMatchObject({ statusCode: status, code, error: expect.any(String), message: expect.any(String) });
  });

  it('names the methods a path takes in Allow on a 405', async () => {
    expect((await send('PUT', '/v2/subscribers')).headers.allow).toBe('POST, GET');
  });
});

describe('the Authorization scheme', () => {
  // The interface spells `ApiKey`; scheme names are case-insensitive in HTTP (RFC 9110 11.1), so any case is accepted.
  it.each(['ApiKey', 'apikey', 'APIKEY'])('accepts %s', async (scheme) => {
    const res = await rawRequest(svc.url, { method: 'GET', path: '/v2/subscribers/known', headers: { authorization: `${scheme} ${svc.apiKey}` } });
    expect(res.status).toBe(200);
  });

  it.each(['Bearer', 'Api-Key', 'ApiKeys'])('refuses %s with a 401', async (scheme) => {
    const res = await rawRequest(svc.url, { method: 'GET', path: '/v2/subscribers/known', headers: { authorization: `${scheme} ${svc.apiKey}` } });
    expect([res.status, JSON.parse(res.text).code]).toEqual([401, 'UNAUTHORIZED']);
  });
});

// Values for every path parameter and query parameter; bodies for every operation that takes one.
const PATH_VALUES = ['%00', 'a%00b', '..', '%2e%2e', '%2F..%2F', '%ZZ', 'x'.repeat(4_000), '%F0%9F%92%A9', '%20', "'%3B%20DROP%20TABLE%20subscribers%3B--"];
const QUERY_VALUES = ['%00', 'not-a-cursor', 'eyJ4IjoxfQ', '-1', '1e309', 'NaN', '', 'x'.repeat(4_000), '%ZZ', 'true&limit=0'];
const BODIES: Array<[string, string | undefined, string]> = [
  ['NUL', 'application/json', `{"a":${NUL_JSON},"subscriberId":${NUL_JSON},"name":${NUL_JSON},"data":{"b":${NUL_JSON}}}`],
  ['deep', 'application/json', deep(20_000)],
  ['1 MB string', 'application/json', JSON.stringify({ name: 'x'.repeat(1 << 20) })],
  ['400 KB strings', 'application/json', JSON.stringify({ subscriberId: 'x'.repeat(200_000), name: 'y'.repeat(200_000) })],
  ['malformed', 'application/json', '{"a":'],
  ['empty', 'application/json', ''],
  ['null', 'application/json', 'null'],
  ['array', 'application/json', '[]'],
  ['string', 'application/json', '"x"'],
  ['text/plain', 'text/plain', '{"name":"x"}'],
  ['xml', 'application/xml', '<a/>'],
  ['form', 'application/x-www-form-urlencoded', 'a=b'],
  ['no content type', undefined, '{"name":"x"}'],
];

describe('every route, every hand-made case', () => {
  it('answers 4xx or 2xx, never 5xx, errors in their documented shape', async () => {
    const problems: string[] = [];
    let sent = 0;
    const judge = async (op: Operation, what: string, response: Promise<RawResponse>) => {
      sent++;
      const res = await response.catch((error: Error) => ({ status: 599, headers: {}, text: `transport: ${error.message}` }));
      const label = `${op.method} ${op.path} ${what}: ${res.status}`;
      if (res.status >= 500) return problems.push(`${label} ${res.text.slice(0, 200)}`);
      if (res.status < 400) return;
      const shape = shapeProblem(res);
      if (shape) return problems.push(`${label} ${shape}`);
      const schema = op.responses[String(res.status)];
      if (!schema) return problems.push(`${label} undocumented status`);
      const mismatch = validator.check(schema, JSON.parse(res.text));
      if (mismatch) problems.push(`${label} ${mismatch}`);
    };
    for (const op of operations) {
      const pathParams = op.parameters.filter((p) => p.in === 'path').map((p) => p.name);
      const known = Object.fromEntries(pathParams.map((name) => [name, 'known']));
      for (const value of PATH_VALUES) {
        for (const name of pathParams) {
          const path = fillPath(op.path, { ...known, [name]: value }, true);
          await judge(op, `path ${name}=${value.slice(0, 20)}`, send(op.method, path));
        }
      }
      const base = fillPath(op.path, known);
      for (const p of op.parameters.filter((p) => p.in === 'query')) {
        for (const value of QUERY_VALUES) await judge(op, `query ${p.name}=${value.slice(0, 20)}`, send(op.method, `${base}?${p.name}=${value}`));
      }
      if (op.body || op.method !== 'GET') {
        for (const [what, type, body] of BODIES) {
          await judge(op, `body ${what}`, send(op.method, base, { headers: type ? { 'content-type': type } : {}, body }));
        }
      }
    }
    console.log(`hostile input: ${sent} requests to ${operations.length} operations, ${problems.length} problems`);
    expect(problems).toEqual([]);
    expect((await rawRequest(svc.url, { method: 'GET', path: '/v1/health-check' })).status).toBe(200);
  }, 300_000);
});
