import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { Navigate } from 'react-router';
import { api, setEnvironmentHeader } from './api/client';

export type Me = { user: { id: string; email: string; role: 'admin' | 'viewer' }; organization: { id: string; name: string }; environments: Array<{ id: string; name: string; slug: string; identifier: string }> };

interface Session {
  me: Me;
  environment: Me['environments'][number];
  /** Admins change things; viewers only read (the server refuses their writes with a 403 too). */
  canWrite: boolean;
  switchEnvironment(id: string): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<Session | null>(null);
const CHOSEN = 'herald.environment';

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in page');
  return session;
}

type State = { kind: 'loading' } | { kind: 'signed-out'; setup: boolean } | { kind: 'signed-in'; me: Me; environmentId: string };

/** Loads the signed-in user; sends a signed-out visitor to sign-in, or to setup while no user exists. */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<State>({ kind: 'loading' });
  const load = useCallback(async () => {
    const { data } = await api.GET('/v1/dashboard/me');
    if (data) {
      const me = data.data as Me;
      const saved = localStorage.getItem(CHOSEN);
      const environmentId = me.environments.find((e) => e.id === saved)?.id ?? me.environments.find((e) => e.slug === 'development')?.id ?? me.environments[0].id;
      setEnvironmentHeader(environmentId);
      return setState({ kind: 'signed-in', me, environmentId });
    }
    const setup = await api.GET('/v1/dashboard/setup');
    setState({ kind: 'signed-out', setup: Boolean(setup.data?.data.required) });
  }, []);
  useEffect(() => void load(), [load]);

  if (state.kind === 'loading') return <p role="status">Loading…</p>;
  if (state.kind === 'signed-out') return <Navigate to={state.setup ? '/setup' : '/sign-in'} replace />;
  const environment = state.me.environments.find((e) => e.id === state.environmentId)!;
  const session: Session = {
    me: state.me,
    environment,
    canWrite: state.me.user.role === 'admin',
    switchEnvironment(id) {
      localStorage.setItem(CHOSEN, id);
      setEnvironmentHeader(id);
      setState({ ...state, environmentId: id });
    },
    async signOut() {
      await api.POST('/v1/dashboard/sign-out');
      setState({ kind: 'signed-out', setup: false });
    },
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
