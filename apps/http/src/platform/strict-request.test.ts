import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createRoute, z, type RouteConfig } from '@hono/zod-openapi';
import { buildApp } from '../app';
import { looseObjectsIn, PROVIDER_DEFINED_BODY, strictRequest } from './strict-request';

describe('looseObjectsIn', () => {
  it('names every object of a request schema that lets unknown keys through; records are free-form', () => {
    const schema = z.strictObject({
      a: z.object({ b: z.string() }).optional(),
      list: z.array(z.strictObject({ c: z.object({}).nullable() })),
      either: z.union([z.string(), z.looseObject({})]),
      data: z.record(z.string(), z.unknown()),
      context: z.record(z.string(), z.object({ id: z.string() })),
    });
    expect(looseObjectsIn(schema)).toEqual(['a', 'list[].c', 'either', 'context{}']);
    expect(looseObjectsIn(z.strictObject({ ok: z.strictObject({ x: z.string() }) }))).toEqual([]);
  });

  it('holds for every route of the app: building it registers each one strictly or throws, and the document renders', async () => {
    const resolver = { get: <T>() => ({}) as T };
    const app = buildApp({ resolver, logger: pino({ enabled: false }), serviceName: 'herald', probe: {} as never, inboxDemo: true });
    const doc = (await (await app.request('/openapi.json')).json()) as { components: { schemas: Record<string, { additionalProperties?: unknown }> } };
    expect(doc.components.schemas.InboxBulkSelection.additionalProperties).toBe(false);
  });

  it('names unknown keys that every object already has (constructor, __proto__) like any other', async () => {
    const resolver = { get: <T>() => ({}) as T };
    const app = buildApp({ resolver, logger: pino({ enabled: false }), serviceName: 'herald', probe: {} as never });
    const body = '{"applicationIdentifier":"pk","subscriber":{"subscriberId":"a","__proto__":{"x":1}},"constructor":1}';
    const res = await app.request('/v1/inbox/session?toString=1', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(res.status).toBe(422);
    const errorsOf = async (r: Response) => Object.keys(((await r.json()) as { errors: object }).errors);
    expect(await errorsOf(res)).toEqual(['toString']);
    const bodyOnly = await app.request('/v1/inbox/session', { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect((await errorsOf(bodyOnly)).sort()).toEqual(['constructor', 'subscriber.__proto__']);
  });

  it("keeps the provider-defined body exception narrow: no JSON schema beside it, and the query stays strict", () => {
    const base = { method: 'post' as const, path: '/v1/receipts/{id}', responses: {} };
    const open: RouteConfig = strictRequest(createRoute({ ...base, [PROVIDER_DEFINED_BODY]: true }));
    expect(open.middleware).toBeUndefined();
    expect(looseObjectsIn(open.request!.query as never)).toEqual([]);
    expect((strictRequest(createRoute(base)) as RouteConfig).middleware).toHaveLength(1);
    const withSchema = createRoute({ ...base, [PROVIDER_DEFINED_BODY]: true, request: { body: { content: { 'application/json': { schema: z.strictObject({}) } } } } });
    expect(() => strictRequest(withSchema)).toThrow(/declares no JSON body schema/);
  });
});
