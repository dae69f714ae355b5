import createClient, { type Middleware } from 'openapi-fetch';
import type { paths } from '../generated/schema';

/** The environment every /v1 and /v2 call acts on; set by the session when the user switches. */
let environmentId: string | undefined;
export function setEnvironmentHeader(id: string | undefined): void {
  environmentId = id;
}

const environmentHeader: Middleware = {
  onRequest({ request }) {
    if (environmentId && /^\/v[12]\//.test(new URL(request.url).pathname)) request.headers.set('Herald-Environment', environmentId);
    return request;
  },
};

// A session that ended (idle, too old, signed out elsewhere, user removed) answers 401 anywhere:
// back to the sign-in page rather than pages of errors.
const sessionEnded: Middleware = {
  onResponse({ request, response }) {
    const path = new URL(request.url).pathname;
    if (response.status === 401 && /^\/v[12]\//.test(path) && !path.startsWith('/v1/dashboard/') && !window.location.pathname.startsWith('/dashboard/sign-in')) {
      window.location.assign('/dashboard/sign-in');
    }
    return response;
  },
};

/** Herald's own API, typed from its /openapi.json; the session cookie rides along (same origin). */
export const api = createClient<paths>({ baseUrl: window.location.origin });
api.use(environmentHeader, sessionEnded);

/** The API's one error shape, as far as the dashboard shows it. */
export interface ApiError {
  statusCode?: number;
  message?: string;
  code?: string;
  errors?: Record<string, { messages?: string[] } | unknown>;
}

/** A person-readable line for an error answer: the message and the fields it names. */
export function errorText(error: unknown, status?: number): string {
  const e = (error ?? {}) as ApiError;
  const fields = e.errors && typeof e.errors === 'object' ? Object.keys(e.errors) : [];
  const head = e.message ?? `Request failed${status ? ` (${status})` : ''}`;
  return fields.length ? `${head} (${fields.join(', ')})` : head;
}
