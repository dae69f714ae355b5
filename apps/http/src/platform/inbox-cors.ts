import { originRefused, type TenancyRepository } from '@herald/domain';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env';

const REFRESH_MS = 5_000;

/**
 * Browser origins each environment allows to call the subscriber inbox API, read from the
 * environments every few seconds (a change by the operator command applies within that time).
 */
export class InboxOrigins {
  private byEnvironment = new Map<string, Set<string>>();
  private any = new Set<string>();
  private loadedAt = 0;
  private loading: Promise<void> | undefined;

  constructor(
    private readonly tenancy: TenancyRepository,
    private readonly now: () => number = Date.now,
  ) {}

  async allowedAnywhere(origin: string): Promise<boolean> {
    await this.fresh();
    return this.any.has(origin);
  }

  async allowedFor(environmentId: string, origin: string): Promise<boolean> {
    await this.fresh();
    return this.byEnvironment.get(environmentId)?.has(origin) ?? false;
  }

  /** FORBIDDEN unless the cross-origin request's origin is on the environment's list. */
  async check(environmentId: string, crossOrigin: string | undefined): Promise<void> {
    if (crossOrigin && !(await this.allowedFor(environmentId, crossOrigin))) throw originRefused(crossOrigin);
  }

  private fresh(): Promise<void> {
    if (this.now() - this.loadedAt < REFRESH_MS) return Promise.resolve();
    this.loading ??= this.tenancy
      .listEnvironments()
      .then((environments) => {
        this.byEnvironment = new Map(environments.map((e) => [e.id, new Set(e.corsOrigins)]));
        this.any = new Set(environments.flatMap((e) => e.corsOrigins));
        this.loadedAt = this.now();
      })
      .finally(() => (this.loading = undefined));
    return this.loading;
  }
}

/**
 * CORS of the inbox API. A preflight is answered for any origin some environment allows (it
 * carries no token yet); the real request is then held to its own environment's list.
 */
export function inboxCors(origins: InboxOrigins): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const origin = c.req.header('origin');
    const own = new URL(c.req.url).origin;
    if (!origin || origin === own) {
      c.set('crossOrigin', undefined);
      return next();
    }
    const allowed = await origins.allowedAnywhere(origin);
    if (c.req.method === 'OPTIONS') {
      if (!allowed) return c.body(null, 403);
      return c.body(null, 204, {
        'Access-Control-Allow-Origin': origin,
        'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': c.req.header('access-control-request-headers') ?? 'Authorization, Content-Type',
        'Access-Control-Max-Age': '600',
        Vary: 'Origin',
      });
    }
    c.set('crossOrigin', origin);
    await next();
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', origin);
      c.res.headers.append('Vary', 'Origin');
    }
  };
}
