import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field, useLoad, when } from '../components/ui';

/** Admins: the dashboard's users and their roles, and invitations (the link is shown once). */
export function Users() {
  const users = useLoad(() => api.GET('/v1/dashboard/users'), []);
  const invitations = useLoad(() => api.GET('/v1/dashboard/invitations'), []);
  const [link, setLink] = useState<string>();
  const [error, setError] = useState<string>();

  async function invite(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await attempt(api.POST('/v1/dashboard/invitations', { body: { email: String(form.get('email')), role: form.get('role') as 'admin' | 'viewer' } }));
    setError(result.error);
    const created = (result.data as { data: { acceptPath: string } } | undefined)?.data;
    setLink(created ? `${window.location.origin}${created.acceptPath}` : undefined);
    await invitations.reload();
  }

  async function setRole(userId: string, role: 'admin' | 'viewer') {
    setError((await attempt(api.PATCH('/v1/dashboard/users/{userId}', { params: { path: { userId } }, body: { role } }))).error);
    await users.reload();
  }

  return (
    <section className="panel" aria-labelledby="users-title">
      <h2 id="users-title">Users</h2>
      <Alert text={users.error ?? error} />
      <table>
        <thead><tr><th>Email</th><th>Role</th><th>Last sign-in</th></tr></thead>
        <tbody>
          {users.data?.data.map((u) => (
            <tr key={u.id}>
              <td>{u.email}</td>
              <td>
                <select aria-label={`Role of ${u.email}`} value={u.role} onChange={(e) => void setRole(u.id, e.target.value as 'admin' | 'viewer')}>
                  <option>admin</option>
                  <option>viewer</option>
                </select>
              </td>
              <td>{when(u.lastSignInAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <form className="filters" onSubmit={invite} aria-label="Invite">
        <Field label="Invite email"><input type="email" name="email" required /></Field>
        <Field label="Role">
          <select name="role" defaultValue="viewer"><option>viewer</option><option>admin</option></select>
        </Field>
        <button type="submit">Invite</button>
      </form>
      {link ? <p role="status">Send this link (shown once, valid 7 days): <code data-testid="invite-link">{link}</code></p> : null}
      {invitations.data?.data.length ? <p className="note">Pending: {invitations.data.data.map((i) => `${i.email} (${i.role}, until ${when(i.expiresAt)})`).join('; ')}</p> : null}
    </section>
  );
}
