import { ScryptPasswordHasher, SqlDashboardInvitationRepository, SqlDashboardSessionRepository, SqlDashboardUserRepository, SqlLoginThrottle } from '@herald/adapters';
import {
  AuthorizeDashboardRequest,
  ChangeDashboardPassword,
  DashboardInvitationRepository,
  DashboardSessionRepository,
  DashboardSessions,
  DashboardUserRepository,
  DescribeDashboardSession,
  InviteDashboardUsers,
  LoginThrottle,
  ManageDashboardUsers,
  PasswordHasher,
  PurgeExpiredDashboardRecords,
  SetUpDashboard,
  SignInToDashboard,
  systemClock,
  TenancyRepository,
} from '@herald/domain';
import { RequestOrigins } from '../platform/request-origin';
import { DashboardGuard } from '../routes/dashboard/dashboard-guard';
import type { Wiring } from './binder';

/**
 * The dashboard's users, sessions and sign-in limits, and the request origins its cookie and CSRF
 * checks rely on (the API's caller check uses them too).
 */
export const dashboard: Wiring = (bind, { db, config }) => {
  bind.value(DashboardUserRepository, new SqlDashboardUserRepository(db.pool));
  bind.value(DashboardInvitationRepository, new SqlDashboardInvitationRepository(db.pool));
  bind.value(DashboardSessionRepository, new SqlDashboardSessionRepository(db.pool));
  // Attempts are counted in PostgreSQL, so every process shares the sign-in limits.
  bind.value(LoginThrottle, new SqlLoginThrottle(db.pool));
  bind.value(PasswordHasher, new ScryptPasswordHasher());
  bind.value(RequestOrigins, new RequestOrigins({ trustProxy: config.trustProxy, publicOrigin: config.publicOrigin }));

  bind.factory(DashboardSessions, [DashboardSessionRepository], (sessions) => new DashboardSessions(sessions, config.session, systemClock));
  bind.construct(DashboardGuard, [DashboardSessions, RequestOrigins]);
  bind.factory(SignInToDashboard, [DashboardUserRepository, LoginThrottle, PasswordHasher, DashboardSessions], (users, throttle, hasher, sessions) => new SignInToDashboard(users, throttle, hasher, sessions, systemClock));
  bind.factory(ChangeDashboardPassword, [DashboardUserRepository, LoginThrottle, PasswordHasher, DashboardSessions], (users, throttle, hasher, sessions) => new ChangeDashboardPassword(users, throttle, hasher, sessions, systemClock));
  bind.factory(
    SetUpDashboard,
    [DashboardUserRepository, DashboardInvitationRepository, TenancyRepository, PasswordHasher, DashboardSessions],
    (users, invitations, tenancy, hasher, sessions) => new SetUpDashboard(users, invitations, tenancy, hasher, sessions, systemClock),
  );
  bind.factory(
    InviteDashboardUsers,
    [DashboardUserRepository, DashboardInvitationRepository, PasswordHasher, DashboardSessions],
    (users, invitations, hasher, sessions) => new InviteDashboardUsers(users, invitations, hasher, sessions, systemClock),
  );
  bind.construct(ManageDashboardUsers, [DashboardUserRepository, TenancyRepository, PasswordHasher, DashboardSessions]);
  bind.construct(DescribeDashboardSession, [TenancyRepository]);
  bind.factory(AuthorizeDashboardRequest, [DashboardSessions, TenancyRepository], (sessions, tenancy) => new AuthorizeDashboardRequest(sessions, tenancy));
  bind.factory(
    PurgeExpiredDashboardRecords,
    [DashboardSessions, DashboardInvitationRepository, LoginThrottle],
    (sessions, invitations, throttle) => new PurgeExpiredDashboardRecords(sessions, invitations, throttle, systemClock),
  );
};
