import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, Field } from '../components/ui';

type Mode = 'sign-in' | 'setup' | 'accept';

const TITLES: Record<Mode, string> = { 'sign-in': 'Sign in to Herald', setup: 'Create the first admin', accept: 'Accept your invitation' };

/** The one-time token of setup and invitation links travels in the URL fragment, which browsers never send. */
function tokenFromHash(): string {
  return new URLSearchParams(window.location.hash.slice(1)).get('token') ?? '';
}

/** Sign-in, first-user setup (with the token the service printed) and accepting an invitation. */
export function SignInPage({ mode }: { mode: Mode }) {
  const [token, setToken] = useState(tokenFromHash);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  // A pasted link to the page already open changes only the fragment.
  useEffect(() => {
    const read = () => setToken(tokenFromHash() || token);
    window.addEventListener('hashchange', read);
    return () => window.removeEventListener('hashchange', read);
  });

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    const answer =
      mode === 'setup'
        ? await api.POST('/v1/dashboard/setup', { body: { token, email, password } })
        : mode === 'accept'
          ? await api.POST('/v1/dashboard/invitations/accept', { body: { token, password } })
          : await api.POST('/v1/dashboard/sign-in', { body: { email, password } });
    setBusy(false);
    if (answer.response.ok) return window.location.assign('/dashboard/');
    const status = answer.response.status;
    const retry = answer.response.headers.get('retry-after');
    setError(
      status === 429
        ? `Too many attempts: try again in ${retry ?? 'a few'} seconds.`
        : status === 401 && mode === 'sign-in'
          ? 'Wrong email or password.'
          : ((answer.error as { message?: string } | undefined)?.message ?? `Failed (${status})`),
    );
  }

  return (
    <main className="auth">
      <form onSubmit={submit} aria-labelledby="auth-title">
        <h1 id="auth-title">{TITLES[mode]}</h1>
        {mode === 'setup' ? (
          <Field label="Setup token" hint="Printed by the service at its start (or use pnpm herald users create).">
            <input value={token} onChange={(e) => setToken(e.target.value)} required autoComplete="off" />
          </Field>
        ) : null}
        {mode !== 'accept' ? (
          <Field label="Email">
            <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="username" />
          </Field>
        ) : null}
        <Field label="Password" hint={mode === 'sign-in' ? undefined : 'At least 12 characters.'}>
          <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} required minLength={mode === 'sign-in' ? 1 : 12} autoComplete={mode === 'sign-in' ? 'current-password' : 'new-password'} />
        </Field>
        <Alert text={error} />
        <button type="submit" disabled={busy}>
          {mode === 'sign-in' ? 'Sign in' : mode === 'setup' ? 'Create admin and sign in' : 'Set password and sign in'}
        </button>
      </form>
    </main>
  );
}
