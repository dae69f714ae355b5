import { ClaimIdempotencyKey, DomainError, type Caller, type IdempotencyStore } from '@herald/domain';
import { InMemoryIdempotencyStore } from '@herald/domain/testing/in-memory-idempotency-store';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { handleError } from './errors';
import { idempotency } from './idempotency';
import { createRouter } from './router';

const caller: Caller = { organizationId: 'org-1', environmentId: 'env-1', idempotencyEnabled: true };

function build(store: IdempotencyStore = new InMemoryIdempotencyStore(), who: Caller | null = caller) {
  const runs: string[] = [];
  const errors: unknown[] = [];
  const logger = pino({ level: 'error' }, { write: (line: string) => void errors.push(JSON.parse(line)) });
  const app = createRouter();
  app.use('*', async (c, next) => {
    c.set('requestId', 'req-1');
    c.set('logger', logger);
    if (who) c.set('caller', who);
    await next();
  });
  app.use('*', idempotency(new ClaimIdempotencyKey(store)));
  app.post('/ok', async (c) => {
    runs.push('ok');
    return c.json({ data: { run: runs.length, body: await c.req.json() } }, 201);
  });
  app.post('/crash', () => {
    runs.push('crash');
    throw new Error('database on fire');
  });
  app.patch('/missing', () => {
    runs.push('missing');
    throw new DomainError('SUBSCRIBER_NOT_FOUND', "Subscriber 'x' was not found");
  });
  app.onError(handleError);
  const send = (path: string, body: unknown, key = 'k-1', method = 'POST') =>
    app.request(path, { method, headers: { 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify(body) });
  return { app, runs, errors, send };
}

describe('idempotency middleware', () => {
  it('stores what app.onError made of a thrown error and replays it byte for byte', async () => {
    const { send, runs } = build();
    const first = await send('/crash', { a: 1 });
    const firstBody = await first.text();
    expect(first.status).toBe(500);
    expect(JSON.parse(firstBody)).toMatchObject({ statusCode: 500, message: expect.stringContaining('req-1') });
    expect(first.headers.get('idempotency-key')).toBe('k-1');
    expect(first.headers.get('idempotency-replay')).toBeNull();

    const again = await send('/crash', { a: 1 });
    expect(again.status).toBe(500);
    expect(await again.text()).toBe(firstBody);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(runs).toEqual(['crash']);
  });

  it('stores a domain error response (PATCH) the same way', async () => {
    const { send, runs } = build();
    const first = await send('/missing', {}, 'k-2', 'PATCH');
    const again = await send('/missing', {}, 'k-2', 'PATCH');
    expect([first.status, again.status]).toEqual([404, 404]);
    expect(await again.text()).toBe(await first.text());
    expect(runs).toEqual(['missing']);
  });

  it('hands the body it read to the route unchanged', async () => {
    const { send } = build();
    const res = await send('/ok', { nested: { b: 2, a: [1, 2] } });
    expect(await res.json()).toEqual({ data: { run: 1, body: { nested: { b: 2, a: [1, 2] } } } });
  });

  it('still answers when the response cannot be stored, and logs why', async () => {
    const store = new InMemoryIdempotencyStore();
    store.complete = async () => {
      throw new Error('connection lost');
    };
    const { send, errors } = build(store);
    const res = await send('/ok', { a: 1 });
    expect(res.status).toBe(201);
    expect(errors).toEqual([expect.objectContaining({ idempotencyKey: 'k-1', msg: expect.stringContaining('could not store') })]);
  });

  it.each([
    ['the organization has idempotency disabled', { ...caller, idempotencyEnabled: false }],
    ['the caller did not authenticate with an API key', null],
  ])('passes through when %s', async (_why, who) => {
    const { send, runs } = build(undefined, who);
    const first = await send('/ok', { a: 1 });
    const second = await send('/ok', { a: 1 });
    expect([first.status, second.status]).toEqual([201, 201]);
    expect(second.headers.get('idempotency-key')).toBeNull();
    expect(runs).toEqual(['ok', 'ok']);
  });
});
