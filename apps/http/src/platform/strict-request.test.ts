import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { z } from '@hono/zod-openapi';
import { buildApp } from '../app';
import { looseObjectsIn } from './strict-request';

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
    const doc = await (await app.request('/openapi.json')).json();
    expect(doc.components.schemas.InboxBulkSelection.additionalProperties).toBe(false);
  });
});
