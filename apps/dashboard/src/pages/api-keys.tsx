import { useState } from 'react';
import { api } from '../api/client';
import { Alert, attempt, useLoad, when } from '../components/ui';
import { useSession } from '../session';

/** The environment's API keys: a new key's secret is shown once, here, and never again. */
export function ApiKeys() {
  const { canWrite } = useSession();
  const keys = useLoad(() => api.GET('/v1/environments/me/api-keys'), []);
  const [secret, setSecret] = useState<string>();
  const [error, setError] = useState<string>();

  async function create() {
    const result = await attempt(api.POST('/v1/environments/me/api-keys'));
    setError(result.error);
    setSecret((result.data as { data: { key: string } } | undefined)?.data.key);
    await keys.reload();
  }

  async function revoke(apiKeyId: string) {
    if (!window.confirm('Revoke this key? Its callers are refused within seconds.')) return;
    const result = await attempt(api.DELETE('/v1/environments/me/api-keys/{apiKeyId}', { params: { path: { apiKeyId } } }));
    setError(result.error);
    await keys.reload();
  }

  return (
    <section className="panel" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <Alert text={keys.error ?? error} />
      {secret ? (
        <p role="status" className="secret">
          New key (copy it now, it is not shown again): <code data-testid="new-key">{secret}</code>
        </p>
      ) : null}
      <table>
        <thead><tr><th>Key</th><th>Created</th><th>Revoked</th><th><span className="sr-only">Actions</span></th></tr></thead>
        <tbody>
          {keys.data?.data.map((k) => (
            <tr key={k.id}>
              <td><code>…{k.hint}</code></td>
              <td>{when(k.createdAt)}</td>
              <td>{when(k.revokedAt)}</td>
              <td>{canWrite && !k.revokedAt ? <button type="button" className="danger" onClick={() => void revoke(k.id)}>Revoke</button> : null}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {canWrite ? <button type="button" onClick={() => void create()}>Create API key</button> : null}
    </section>
  );
}
