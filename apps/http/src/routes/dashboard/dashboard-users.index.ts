import { DashboardSessions, DescribeDashboardSession, InviteDashboardUsers, ManageDashboardUsers } from '@herald/domain';
import type { Resolver } from '../../platform/app-env';
import { createRouter } from '../../platform/router';
import { writeSessionCookie } from '../../platform/session-cookie';
import { DashboardGuard, sessionOf } from './dashboard-guard';
import { presentDashboardUser, presentInvitation, presentMe } from './dashboard.presenter';
import { dashboardUsersRoutes } from './dashboard-users.routes';

/** Users and invitations: admins manage them; an invited person accepts with a password. */
export function dashboardUsersRouter(resolve: Resolver) {
  const guard = resolve.get(DashboardGuard);
  const routes = dashboardUsersRoutes(guard);
  const users = resolve.get(ManageDashboardUsers);
  const invitations = resolve.get(InviteDashboardUsers);
  const describe = resolve.get(DescribeDashboardSession);
  const { policy } = resolve.get(DashboardSessions);

  return createRouter()
    .openapi(routes.listUsers, async (c) => {
      const { user } = sessionOf(c);
      return c.json({ data: (await users.list(user.organizationId)).map(presentDashboardUser) }, 200);
    })
    .openapi(routes.changeRole, async (c) => {
      const { user } = sessionOf(c);
      const changed = await users.setRole(user.organizationId, c.req.valid('param').userId, c.req.valid('json').role);
      return c.json({ data: presentDashboardUser(changed) }, 200);
    })
    .openapi(routes.deleteUser, async (c) => {
      const { user } = sessionOf(c);
      await users.delete(user.organizationId, c.req.valid('param').userId);
      return c.body(null, 204);
    })
    .openapi(routes.listInvitations, async (c) => {
      const { user } = sessionOf(c);
      return c.json({ data: (await invitations.listPending(user.organizationId)).map(presentInvitation) }, 200);
    })
    .openapi(routes.invite, async (c) => {
      const { user } = sessionOf(c);
      const { invitation, token } = await invitations.invite(user, c.req.valid('json'));
      return c.json({ data: { ...presentInvitation(invitation), token, acceptPath: `/dashboard/accept-invitation#token=${token}` } }, 201);
    })
    .openapi(routes.revokeInvitation, async (c) => {
      const { user } = sessionOf(c);
      await invitations.revoke(user.organizationId, c.req.valid('param').invitationId);
      return c.body(null, 204);
    })
    .openapi(routes.inspectInvitation, async (c) => {
      const invitation = await invitations.inspect(c.req.valid('json').token);
      return c.json({ data: { email: invitation.email ?? '', role: invitation.role, expiresAt: invitation.expiresAt.toISOString() } }, 200);
    })
    .openapi(routes.acceptInvitation, async (c) => {
      const opened = await invitations.accept(c.req.valid('json'));
      writeSessionCookie(c, guard.origins, opened.token, opened.expiresAt);
      return c.json({ data: presentMe(await describe.execute(opened), opened, policy) }, 201);
    });
}
