import { z, type RouteConfig } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';
import { errorBody } from './errors';

const CHANGES_DATA = new Set(['post', 'put', 'patch', 'delete']);

/** The message of a key a strict request object does not know (the default hook names the key). */
export const UNKNOWN_FIELD = 'is not a field of this request';

/**
 * The one exception to strict bodies: a route a third party calls with ITS format (a provider's
 * delivery receipts), read raw and trusted only after its signature verifies. Such a route declares
 * `[PROVIDER_DEFINED_BODY]: true` and no JSON body schema; its query stays strict.
 */
export const PROVIDER_DEFINED_BODY = 'x-provider-defined-body';

/** The query of a route that changes data and reads none. */
const NoQuery = z.strictObject({});

type ZodLike = { _zod: { def: Record<string, any> } };

/**
 * Where a request schema lets unknown keys through: every object in it must be strict. Records
 * (`payload`, `data`, control values...) are free-form by design; their values are still walked.
 */
export function looseObjectsIn(schema: ZodLike, at = ''): string[] {
  const def = schema._zod.def;
  const walk = (inner: ZodLike | undefined, path = at) => (inner ? looseObjectsIn(inner, path) : []);
  switch (def.type) {
    case 'object': {
      const own = def.catchall?._zod.def.type === 'never' ? [] : [at || '(root)'];
      return [...own, ...Object.entries(def.shape as Record<string, ZodLike>).flatMap(([key, value]) => walk(value, at ? `${at}.${key}` : key))];
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return walk(def.innerType);
    case 'pipe':
      return [...walk(def.in), ...walk(def.out)];
    case 'union':
      return (def.options as ZodLike[]).flatMap((option) => walk(option));
    case 'intersection':
      return [...walk(def.left), ...walk(def.right)];
    case 'array':
      return walk(def.element, `${at}[]`);
    case 'record':
      return walk(def.valueType, `${at}{}`);
    case 'lazy':
      return walk(def.getter());
    default:
      return [];
  }
}

/**
 * A route that takes no body refuses one with content: an unknown key is named like any other.
 * No body, whitespace or `{}` (what clients send for "nothing") pass.
 */
const refuseBody: MiddlewareHandler<AppEnv> = async (c, next) => {
  const text = (await c.req.text()).trim();
  if (text === '' || text === '{}') return next();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const keys = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? Object.keys(parsed) : [];
  const errors = keys.length
    ? Object.fromEntries(keys.map((key) => [key, { messages: [`${UNKNOWN_FIELD}: it takes no body`] }]))
    : { body: { messages: ['must be empty: this request takes no body'] } };
  const [first] = Object.entries(errors);
  return c.json(errorBody(c, 422, `${first[0]}: ${first[1].messages[0]}`, { errors, code: 'VALIDATION_FAILED' }), 422);
};

/**
 * Every route that changes or deletes data reads its request strictly: its body and query schemas
 * must refuse unknown keys (checked here, when the route is registered, so no route can forget), a
 * route without a query gets an empty strict one, and a route without a body refuses one.
 */
export function strictRequest<R extends RouteConfig>(route: R): R {
  if (!CHANGES_DATA.has(route.method)) return route;
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const query = (route.request?.query ?? NoQuery) as unknown as ZodLike;
  const body = (route.request?.body?.content?.['application/json'] as { schema?: ZodLike } | undefined)?.schema;
  const loose = [...looseObjectsIn(query).map((at) => `query ${at}`), ...(body ? looseObjectsIn(body).map((at) => `body ${at}`) : [])];
  if (loose.length) throw new Error(`${name} changes data but lets unknown keys through at: ${loose.join(', ')}; use z.strictObject`);
  const providerBody = (route as Record<string, unknown>)[PROVIDER_DEFINED_BODY] === true;
  if (providerBody && body) throw new Error(`${name} takes a provider-defined body and so declares no JSON body schema`);
  const middleware = route.middleware === undefined ? [] : Array.isArray(route.middleware) ? route.middleware : [route.middleware];
  return {
    ...route,
    request: { ...route.request, query },
    ...(body || providerBody ? {} : { middleware: [...middleware, refuseBody] }),
  };
}
