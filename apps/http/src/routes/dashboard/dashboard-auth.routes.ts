import { createRoute } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent, noContent, throttledResponses } from '../../platform/schemas';
import type { DashboardGuard } from './dashboard-guard';
import { MeSchema, PasswordChangeBodySchema, SetupBodySchema, SetupStatusSchema, SignInBodySchema } from './dashboard.schemas';

const tags = ['Dashboard'];
const session = [{ DashboardSession: [] }];
const signedIn = (description: string) => ({
  content: { 'application/json': { schema: dataEnvelope(MeSchema) } },
  description: `${description}; Set-Cookie: herald_session (HttpOnly, SameSite=Lax, Path=/, Secure over HTTPS)`,
});

/** Setup, sign-in, sign-out and the signed-in user, each guarded before its input is read. */
export function dashboardAuthRoutes(guard: Pick<DashboardGuard, 'open' | 'signedIn'>) {
  const open = { tags, security: [], middleware: guard.open };
  const signedInOnly = { tags, security: session, middleware: guard.signedIn };
  return {
    setupStatus: createRoute({
      ...open,
      method: 'get',
      path: '/v1/dashboard/setup',
      summary: 'Whether the first admin is still to be set up',
      responses: { 200: jsonContent(dataEnvelope(SetupStatusSchema), 'Setup status'), ...errorResponses },
    }),
    setup: createRoute({
      ...open,
      method: 'post',
      path: '/v1/dashboard/setup',
      summary: 'Create the first admin with the setup token the service printed at start, and sign in',
      request: jsonBody(SetupBodySchema),
      responses: { 201: signedIn('The first admin, signed in'), ...errorResponses },
    }),
    signIn: createRoute({
      ...open,
      method: 'post',
      path: '/v1/dashboard/sign-in',
      summary: 'Sign in with email and password (attempts limited per account and per address)',
      request: jsonBody(SignInBodySchema),
      responses: { 200: signedIn('Signed in'), ...throttledResponses },
    }),
    signOut: createRoute({
      ...signedInOnly,
      method: 'post',
      path: '/v1/dashboard/sign-out',
      summary: 'End this session on the server and clear its cookie',
      responses: { 204: noContent('Signed out'), ...errorResponses },
    }),
    me: createRoute({
      ...signedInOnly,
      method: 'get',
      path: '/v1/dashboard/me',
      summary: 'The signed-in user, their organization and the environments they can switch to',
      responses: { 200: jsonContent(dataEnvelope(MeSchema), 'The session'), ...errorResponses },
    }),
    changePassword: createRoute({
      ...signedInOnly,
      method: 'put',
      path: '/v1/dashboard/me/password',
      summary: 'Change your own password (the current one is needed); your other sessions end',
      request: jsonBody(PasswordChangeBodySchema),
      responses: { 204: noContent('Changed'), ...throttledResponses },
    }),
  };
}
