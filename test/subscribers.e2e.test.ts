import { Novu } from '@novu/api';
import { PrismaTenancyRepository, connectDatabase } from '@herald/adapters';
import { ManageApiKeys } from '@herald/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startService, type TestService } from './support/service';

let svc: TestService;
let novu: Novu;

beforeAll(async () => {
  svc = await startService();
  novu = new Novu({ secretKey: svc.apiKey, serverURL: svc.url });
});
afterAll(() => svc?.dispose());

describe('subscribers through the @novu/api SDK', () => {
  it('creates, retrieves, patches, marks online and deletes a subscriber', async () => {
    const created = await novu.subscribers.create({ subscriberId: 'sdk-1', firstName: 'Ada', email: 'ada@example.com', phone: '+14155550123', timezone: 'Europe/London', data: { plan: 'pro' } });
    expect(created.result).toMatchObject({ subscriberId: 'sdk-1', firstName: 'Ada', deleted: false, data: { plan: 'pro' } });
    expect(created.result.id).toBeTruthy();

    const patched = await novu.subscribers.patch({ lastName: 'Lovelace', locale: 'en-GB' }, 'sdk-1');
    expect(patched.result).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', locale: 'en-GB', v: 1 });

    const online = await novu.subscribers.properties.updateOnlineFlag({ isOnline: true }, 'sdk-1');
    expect(online.result.isOnline).toBe(true);
    expect(online.result.lastOnlineAt).toBeTruthy();

    const fetched = await novu.subscribers.retrieve('sdk-1');
    expect(fetched.result).toMatchObject({ subscriberId: 'sdk-1', lastName: 'Lovelace', isOnline: true });

    const removed = await novu.subscribers.delete('sdk-1');
    expect(removed.result).toEqual({ acknowledged: true, status: 'deleted' });
    await expect(novu.subscribers.retrieve('sdk-1')).rejects.toMatchObject({ statusCode: 404 });
  });

  it('updates an existing subscriberId on create, and answers 409 with failIfExists', async () => {
    await novu.subscribers.create({ subscriberId: 'dup', firstName: 'One' });
    const again = await novu.subscribers.create({ subscriberId: 'dup', firstName: 'Two' });
    expect(again.result.firstName).toBe('Two');
    const conflict = await svc.request('/v2/subscribers?failIfExists=true', { method: 'POST', json: { subscriberId: 'dup' } });
    expect(conflict.status).toBe(409);
    expect(await conflict.json()).toMatchObject({ statusCode: 409, error: 'Conflict', subscriberId: 'dup', message: expect.stringContaining('dup') });
  });

  it('bulk-creates: created, updated and failed items in one request', async () => {
    await novu.subscribers.create({ subscriberId: 'bulk-existing' });
    const { result } = await novu.subscribers.createBulk({
      subscribers: [
        { subscriberId: 'bulk-new', email: 'new@example.com' },
        { subscriberId: 'bulk-existing', firstName: 'Updated' },
        { subscriberId: 'bulk-bad', phone: '555' },
      ],
    });
    expect(result.created).toEqual([{ subscriberId: 'bulk-new' }]);
    expect(result.updated).toEqual([{ subscriberId: 'bulk-existing' }]);
    expect(result.failed).toEqual([{ subscriberId: 'bulk-bad', message: expect.stringContaining('phone') }]);
    expect((await novu.subscribers.retrieve('bulk-existing')).result.firstName).toBe('Updated');
  });

  it('refuses more than 500 subscribers in one bulk request, naming the limit', async () => {
    const subscribers = Array.from({ length: 501 }, (_, i) => ({ subscriberId: `over-${i}` }));
    const res = await svc.request('/v1/subscribers/bulk', { method: 'POST', json: { subscribers } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(body.errors.subscribers.messages[0]).toMatch(/at most 500/);
  });

  it('searches case-sensitively with cursor pagination', async () => {
    await novu.subscribers.createBulk({
      subscribers: Array.from({ length: 5 }, (_, i) => ({ subscriberId: `search-${i}`, firstName: 'Grace', lastName: `Hopper${i}`, email: `grace${i}@navy.mil` })),
    });
    const first = await novu.subscribers.search({ name: 'Grace', limit: 2, orderBy: 'subscriberId', orderDirection: 'ASC' as never });
    expect(first.result.data.map((s) => s.subscriberId)).toEqual(['search-0', 'search-1']);
    expect(first.result.totalCount).toBe(5);
    expect(first.result.previous).toBeNull();
    const second = await novu.subscribers.search({ name: 'Grace', limit: 2, orderBy: 'subscriberId', orderDirection: 'ASC' as never, after: first.result.next! });
    expect(second.result.data.map((s) => s.subscriberId)).toEqual(['search-2', 'search-3']);
    const back = await novu.subscribers.search({ name: 'Grace', limit: 2, orderBy: 'subscriberId', orderDirection: 'ASC' as never, before: second.result.previous! });
    expect(back.result.data.map((s) => s.subscriberId)).toEqual(['search-0', 'search-1']);
    expect((await novu.subscribers.search({ name: 'grace' })).result.totalCount).toBe(0);
    expect((await novu.subscribers.search({ email: 'grace3@' })).result.data.map((s) => s.subscriberId)).toEqual(['search-3']);
    expect((await novu.subscribers.search({ name: 'Grace Hopper4' })).result.data.map((s) => s.subscriberId)).toEqual(['search-4']);
  });
});

describe('the HTTP platform', () => {
  it('answers 401 in the error shape for a missing, malformed or unknown key', async () => {
    for (const authorization of ['', 'Bearer x', 'ApiKey nope']) {
      const res = await svc.request('/v2/subscribers', { headers: authorization ? { authorization } : { authorization: '' } });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized', path: '/v2/subscribers', timestamp: expect.any(String) });
    }
  });

  it('names the field on a 422 and never answers 500 for bad input', async () => {
    const res = await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'x', email: 'not-an-email', timezone: 'Nowhere/City' } });
    expect(res.status).toBe(422);
    const body = await res.json();
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'timezone']);
    const wrongType = await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 42 } });
    expect(wrongType.status).toBe(422);
    expect((await wrongType.json()).errors.subscriberId).toBeDefined();
    const both = await svc.request('/v2/subscribers?after=a&before=b');
    expect(both.status).toBe(422);
  });

  it('answers 400 for malformed JSON, 413 over 512 KB, 404 for unknown routes and resources', async () => {
    const malformed = await svc.request('/v2/subscribers', { method: 'POST', body: '{"subscriberId":', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect((await malformed.json()).message).toMatch(/Malformed JSON/);
    const big = await svc.request('/v2/subscribers', { method: 'POST', json: { subscriberId: 'big', data: { blob: 'x'.repeat(600 * 1024) } }, headers: { connection: 'close' } });
    expect(big.status).toBe(413);
    expect((await big.json()).statusCode).toBe(413);
    // A chunked body has no Content-Length: it is counted while it streams.
    const chunks = (n: number) =>
      new ReadableStream({
        start(controller) {
          for (let i = 0; i < n; i++) controller.enqueue(new TextEncoder().encode(i === 0 ? '{"subscriberId":"chunked","data":{"blob":"' : 'x'.repeat(64 * 1024)));
          controller.enqueue(new TextEncoder().encode('"}}'));
          controller.close();
        },
      });
    const chunked = (n: number) =>
      fetch(`${svc.url}/v2/subscribers`, {
        method: 'POST',
        body: chunks(n),
        duplex: 'half',
        headers: { authorization: `ApiKey ${svc.apiKey}`, 'content-type': 'application/json', connection: 'close' },
      } as RequestInit);
    const bigChunked = await chunked(10);
    expect(bigChunked.status).toBe(413);
    expect((await bigChunked.json()).statusCode).toBe(413);
    expect((await chunked(2)).status).toBe(201);
    const route = await svc.request('/v2/nothing-here', { headers: { 'x-request-id': 'req-42' } });
    expect(route.status).toBe(404);
    expect(route.headers.get('x-request-id')).toBe('req-42');
    const resource = await svc.request('/v2/subscribers/ghost');
    expect(resource.status).toBe(404);
    expect((await resource.json()).message).toContain('ghost');
  });

  it('serves health, the OpenAPI document and the reference page without a key', async () => {
    expect((await fetch(`${svc.url}/v1/health-check`)).status).toBe(200);
    const doc = await (await fetch(`${svc.url}/openapi.json`)).json();
    expect(doc.paths['/v2/subscribers'].post).toBeDefined();
    expect(doc.paths['/v1/subscribers/bulk'].post.responses['201']).toBeDefined();
    const page = await fetch(`${svc.url}/docs`);
    expect(await page.text()).toContain('/openapi.json');
  });
});

describe('environments', () => {
  it('a second environment key sees none of the first environment subscribers', async () => {
    await novu.subscribers.create({ subscriberId: 'dev-only' });
    const db = connectDatabase(svc.databaseUrl, 2);
    const { key } = await new ManageApiKeys(new PrismaTenancyRepository(db.prisma)).create('production');
    await db.close();
    const prod = new Novu({ secretKey: key, serverURL: svc.url });
    await expect(prod.subscribers.retrieve('dev-only')).rejects.toMatchObject({ statusCode: 404 });
    expect((await prod.subscribers.search({})).result.totalCount).toBe(0);
    await prod.subscribers.create({ subscriberId: 'dev-only', firstName: 'Prod' });
    expect((await novu.subscribers.retrieve('dev-only')).result.firstName).toBeNull();
  });
});
