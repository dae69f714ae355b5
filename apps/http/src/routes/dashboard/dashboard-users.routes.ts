import { createRoute, z } from '@hono/zod-openapi';
import { dataEnvelope, errorResponses, jsonBody, jsonContent, noContent } from '../../platform/schemas';
import type { DashboardGuard } from './dashboard-guard';
import {
  AcceptInvitationBodySchema,
  CreatedInvitationSchema,
  DashboardUserSchema,
  InvitationSchema,
  InvitationTokenBodySchema,
  InviteBodySchema,
  MeSchema,
  RoleChangeBodySchema,
  RoleSchema,
} from './dashboard.schemas';

const tags = ['Dashboard'];
const UserIdParam = z.object({ userId: z.string().min(1) });
const InvitationIdParam = z.object({ invitationId: z.string().min(1) });

/** Users and invitations, each guarded before its input is read. */
export function dashboardUsersRoutes(guard: Pick<DashboardGuard, 'open' | 'admin'>) {
  const open = { tags, security: [], middleware: guard.open };
  const admin = { tags, security: [{ DashboardSession: [] }], middleware: guard.admin };
  return {
    listUsers: createRoute({
      ...admin,
      method: 'get',
      path: '/v1/dashboard/users',
      summary: "The organization's dashboard users (admins only)",
      responses: { 200: jsonContent(dataEnvelope(z.array(DashboardUserSchema)), 'Users'), ...errorResponses },
    }),
    changeRole: createRoute({
      ...admin,
      method: 'patch',
      path: '/v1/dashboard/users/{userId}',
      summary: "Change a user's role (admins only; 409 for the last admin)",
      request: { params: UserIdParam, ...jsonBody(RoleChangeBodySchema) },
      responses: { 200: jsonContent(dataEnvelope(DashboardUserSchema), 'The user'), ...errorResponses },
    }),
    deleteUser: createRoute({
      ...admin,
      method: 'delete',
      path: '/v1/dashboard/users/{userId}',
      summary: 'Delete a user and end their sessions (admins only; 409 for the last admin)',
      request: { params: UserIdParam },
      responses: { 204: noContent('Deleted'), ...errorResponses },
    }),
    listInvitations: createRoute({
      ...admin,
      method: 'get',
      path: '/v1/dashboard/invitations',
      summary: 'Pending invitations, without their tokens (admins only)',
      responses: { 200: jsonContent(dataEnvelope(z.array(InvitationSchema)), 'Invitations'), ...errorResponses },
    }),
    invite: createRoute({
      ...admin,
      method: 'post',
      path: '/v1/dashboard/invitations',
      summary: 'Invite a person by email with a role, valid 7 days (admins only); the token is shown once',
      request: jsonBody(InviteBodySchema),
      responses: { 201: jsonContent(dataEnvelope(CreatedInvitationSchema), 'The invitation and its token'), ...errorResponses },
    }),
    revokeInvitation: createRoute({
      ...admin,
      method: 'delete',
      path: '/v1/dashboard/invitations/{invitationId}',
      summary: 'Revoke a pending invitation (admins only)',
      request: { params: InvitationIdParam },
      responses: { 204: noContent('Revoked'), ...errorResponses },
    }),
    inspectInvitation: createRoute({
      ...open,
      method: 'post',
      path: '/v1/dashboard/invitations/inspect',
      summary: 'What an invitation token invites to (email, role, expiry), for the page that accepts it',
      request: jsonBody(InvitationTokenBodySchema),
      responses: { 200: jsonContent(dataEnvelope(z.object({ email: z.string(), role: RoleSchema, expiresAt: z.string() })), 'The invitation'), ...errorResponses },
    }),
    acceptInvitation: createRoute({
      ...open,
      method: 'post',
      path: '/v1/dashboard/invitations/accept',
      summary: 'Accept an invitation by choosing a password; the new user is signed in',
      request: jsonBody(AcceptInvitationBodySchema),
      responses: { 201: { content: { 'application/json': { schema: dataEnvelope(MeSchema) } }, description: 'The new user, signed in; Set-Cookie: herald_session' }, ...errorResponses },
    }),
  };
}
