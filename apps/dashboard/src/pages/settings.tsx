import { useEffect, useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field, Page, useLoad, ViewerNote } from '../components/ui';
import { useSession } from '../session';
import { ApiKeys } from './api-keys';
import { Users } from './users';

const RETRY_FIELDS = ['maxAttempts', 'initialDelayMs', 'multiplier', 'maxDelayMs', 'jitter', 'failoverAfter'] as const;

/** The environment's API keys, the Inbox's identifier, HMAC switch and allowed origins, the retry policy; users for admins. */
export function SettingsPage() {
  const { canWrite, environment } = useSession();
  const env = useLoad(() => api.GET('/v1/environments/me'), []);
  const retry = useLoad(() => api.GET('/v1/environments/me/retry-policy'), []);
  const [hmac, setHmac] = useState(false);
  const [origins, setOrigins] = useState('');
  const [policy, setPolicy] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<{ error?: string; ok?: string }>({});

  useEffect(() => {
    if (!env.data) return;
    setHmac(env.data.data.inboxHmac);
    setOrigins(env.data.data.corsOrigins.join('\n'));
  }, [env.data]);
  useEffect(() => {
    if (retry.data) setPolicy(Object.fromEntries(RETRY_FIELDS.map((k) => [k, String(retry.data!.data.own?.[k] ?? '')])));
  }, [retry.data]);

  async function saveInbox(event: FormEvent) {
    event.preventDefault();
    const corsOrigins = origins.split(/\s+/).filter(Boolean);
    const result = await attempt(api.PATCH('/v1/environments/me', { body: { inboxHmac: hmac, corsOrigins } }));
    setMessage(result.error ? { error: result.error } : { ok: 'Inbox settings saved.' });
    await env.reload();
  }

  async function saveRetry(event: FormEvent) {
    event.preventDefault();
    const fields = Object.fromEntries(RETRY_FIELDS.filter((k) => policy[k] !== '').map((k) => [k, Number(policy[k])]));
    const result = Object.keys(fields).length
      ? await attempt(api.PUT('/v1/environments/me/retry-policy', { body: fields }))
      : await attempt(api.DELETE('/v1/environments/me/retry-policy'));
    setMessage(result.error ? { error: result.error } : { ok: 'Retry policy saved.' });
    await retry.reload();
  }

  return (
    <Page title={`Keys and settings: ${environment.name}`}>
      {!canWrite ? <ViewerNote /> : null}
      <Alert text={env.error ?? retry.error ?? message.error} />
      {message.ok ? <p role="status">{message.ok}</p> : null}
      <ApiKeys />
      <form className="panel" onSubmit={saveInbox} aria-labelledby="inbox-title">
        <h2 id="inbox-title">Inbox</h2>
        <p>Application identifier (public): <code>{env.data?.data.identifier ?? environment.identifier}</code></p>
        <fieldset disabled={!canWrite}>
          <label className="check"><input type="checkbox" checked={hmac} onChange={(e) => setHmac(e.target.checked)} /> Require subscriberHash (HMAC) for Inbox sessions</label>
          <Field label="Allowed origins (one per line)"><textarea rows={3} value={origins} onChange={(e) => setOrigins(e.target.value)} /></Field>
          <button type="submit">Save Inbox settings</button>
        </fieldset>
      </form>
      <form className="panel" onSubmit={saveRetry} aria-labelledby="retry-title">
        <h2 id="retry-title">Retry policy</h2>
        <p className="note">
          In effect: {retry.data ? RETRY_FIELDS.map((k) => `${k} ${retry.data!.data.effective[k]}`).join(', ') : '…'}. Empty fields follow the service default.
        </p>
        <fieldset disabled={!canWrite} className="grid">
          {RETRY_FIELDS.map((k) => (
            <Field key={k} label={k}><input type="number" step="any" value={policy[k] ?? ''} onChange={(e) => setPolicy({ ...policy, [k]: e.target.value })} /></Field>
          ))}
          <button type="submit">Save retry policy</button>
        </fieldset>
      </form>
      {canWrite ? <Users /> : null}
    </Page>
  );
}
