import { NavLink, Outlet, useNavigate } from 'react-router';
import { useSession } from './session';

const PAGES = [
  ['/', 'Overview'],
  ['/activity', 'Activity'],
  ['/workflows', 'Workflows'],
  ['/subscribers', 'Subscribers'],
  ['/topics', 'Topics'],
  ['/integrations', 'Integrations'],
  ['/settings', 'Keys and settings'],
] as const;

/** Every signed-in page: navigation, the environment switcher, who is signed in. */
export function Layout() {
  const session = useSession();
  const navigate = useNavigate();
  return (
    <div className="shell">
      <nav aria-label="Dashboard">
        <p className="brand">Herald</p>
        <div className="field">
          <label htmlFor="environment">Environment</label>
          <select id="environment" value={session.environment.id} onChange={(e) => session.switchEnvironment(e.target.value)}>
            {session.me.environments.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
          </select>
        </div>
        <ul>
          {PAGES.map(([to, label]) => (
            <li key={to}>
              <NavLink to={to} end={to === '/'}>
                {label}
              </NavLink>
            </li>
          ))}
        </ul>
        <p className="who">
          {session.me.user.email}
          <br />
          <small>{session.me.user.role}</small>
        </p>
        <button type="button" className="secondary" onClick={() => void session.signOut().then(() => navigate('/sign-in'))}>
          Sign out
        </button>
      </nav>
      {/* Keyed by environment: a switch reloads every page's data for the chosen one. */}
      <main key={session.environment.id}>
        <Outlet />
      </main>
    </div>
  );
}
