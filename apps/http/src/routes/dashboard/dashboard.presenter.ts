import type { DashboardInvitation, DashboardProfile, DashboardUser, SessionPolicy } from '@herald/domain';
import type { z } from '@hono/zod-openapi';
import type { DashboardUserSchema, InvitationSchema, MeSchema } from './dashboard.schemas';

/** A user as routes show them: never the password hash, which no query here even reads. */
export function presentDashboardUser(u: DashboardUser): z.infer<typeof DashboardUserSchema> {
  return { id: u.id, email: u.email, role: u.role, createdAt: u.createdAt.toISOString(), lastSignInAt: u.lastSignInAt?.toISOString() ?? null };
}

export function presentMe(profile: DashboardProfile, session: { expiresAt: Date }, policy: SessionPolicy): z.infer<typeof MeSchema> {
  return {
    user: presentDashboardUser(profile.user),
    organization: { id: profile.organization.id, name: profile.organization.name },
    environments: profile.environments.map((e) => ({ id: e.id, name: e.name, slug: e.slug, identifier: e.publicIdentifier })),
    session: { expiresAt: session.expiresAt.toISOString(), idleTimeoutSeconds: Math.round(policy.idleMs / 1000) },
  };
}

/** An invitation without its token (only its hash is stored). */
export function presentInvitation(i: DashboardInvitation): z.infer<typeof InvitationSchema> {
  return { id: i.id, email: i.email ?? '', role: i.role, invitedBy: i.invitedBy, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() };
}
