import { z } from '@hono/zod-openapi';
import { DASHBOARD_ROLES, PASSWORD_MAX_LENGTH } from '@herald/domain';

export const RoleSchema = z.enum(DASHBOARD_ROLES).openapi({ description: 'admin: changes anything; viewer: reads, sees no secret' });
const email = z.string().min(1).max(254).openapi({ example: 'ada@example.com' });
// The length rule itself (at least 12 characters) is the domain's, named in its 422.
const password = z.string().max(PASSWORD_MAX_LENGTH);
const token = z.string().min(1).max(200);

export const DashboardUserSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: RoleSchema,
    createdAt: z.string(),
    lastSignInAt: z.string().nullable(),
  })
  .openapi('DashboardUser');

export const DashboardEnvironmentSchema = z
  .object({
    id: z.string().openapi({ description: 'Send it as the Herald-Environment header of /v1 and /v2 requests' }),
    name: z.string(),
    slug: z.string(),
    /** The browser Inbox's public application identifier (not a secret). */
    identifier: z.string(),
  })
  .openapi('DashboardEnvironment');

export const MeSchema = z
  .object({
    user: DashboardUserSchema,
    organization: z.object({ id: z.string(), name: z.string() }),
    environments: z.array(DashboardEnvironmentSchema),
    session: z.object({
      expiresAt: z.string().openapi({ description: 'The absolute end of this session' }),
      idleTimeoutSeconds: z.number().openapi({ description: 'The session ends after this long without a request' }),
    }),
  })
  .openapi('DashboardMe');

export const InvitationSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    role: RoleSchema,
    invitedBy: z.string().nullable(),
    createdAt: z.string(),
    expiresAt: z.string(),
  })
  .openapi('DashboardInvitation');

export const CreatedInvitationSchema = InvitationSchema.extend({
  token: z.string().openapi({ description: 'Shown once: pass it to the invited person (only its hash is stored)' }),
  acceptPath: z.string().openapi({ description: 'Where the dashboard accepts it: /dashboard/accept-invitation#token=<token>' }),
}).openapi('DashboardCreatedInvitation');

export const SetupStatusSchema = z.object({ required: z.boolean().openapi({ description: 'No user exists yet: the first admin is set up with the token the service printed' }) });

// Bodies refuse unknown keys (422), like every body that changes data.
export const SetupBodySchema = z.object({ token, email, password }).strict().openapi('DashboardSetup');
export const SignInBodySchema = z.object({ email, password }).strict().openapi('DashboardSignIn');
export const PasswordChangeBodySchema = z.object({ currentPassword: password, newPassword: password }).strict().openapi('DashboardPasswordChange');
export const InviteBodySchema = z.object({ email, role: RoleSchema }).strict().openapi('DashboardInvite');
export const InvitationTokenBodySchema = z.object({ token }).strict().openapi('DashboardInvitationToken');
export const AcceptInvitationBodySchema = z.object({ token, password }).strict().openapi('DashboardAcceptInvitation');
export const RoleChangeBodySchema = z.object({ role: RoleSchema }).strict().openapi('DashboardRoleChange');
