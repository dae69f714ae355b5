import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field, useLoad } from '../components/ui';

type Setting = { providerId: string; integrationIdentifier?: string; credentials: { webhookUrl?: string; deviceTokens?: string[] } };

const describe = (s: Setting) =>
  [s.credentials.webhookUrl && `webhook ${s.credentials.webhookUrl}`, s.credentials.deviceTokens?.length && `${s.credentials.deviceTokens.length} device token(s): ${s.credentials.deviceTokens.join(', ')}`]
    .filter(Boolean)
    .join('; ') || 'no credentials';

/**
 * A subscriber's channel settings per chat or push integration: the webhook URL a chat message goes
 * to, the device tokens a push goes to. Saving replaces that integration's settings.
 */
export function SubscriberChannels({ subscriberId, channels, canWrite, onSaved }: { subscriberId: string; channels: Setting[]; canWrite: boolean; onSaved(): void }) {
  const integrations = useLoad(() => api.GET('/v1/integrations'), []);
  const targets = (integrations.data?.data ?? []).filter((i) => i.channel === 'chat' || i.channel === 'push');
  const [target, setTarget] = useState('');
  const [message, setMessage] = useState<{ error?: string; ok?: string }>({});
  const path = { path: { subscriberId } };
  const chosen = targets.find((i) => i.identifier === target) ?? targets[0];

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!chosen) return;
    const element = event.currentTarget;
    const form = new FormData(element);
    const webhookUrl = String(form.get('webhookUrl') ?? '').trim();
    const deviceTokens = String(form.get('deviceTokens') ?? '').split(/[\s,]+/).filter(Boolean);
    const credentials = chosen.channel === 'chat' ? { webhookUrl } : { deviceTokens };
    const body = { providerId: chosen.providerId, integrationIdentifier: chosen.identifier, credentials };
    const result = await attempt(api.PUT('/v1/subscribers/{subscriberId}/credentials', { params: path, body }));
    setMessage(result.error ? { error: result.error } : { ok: 'Channel settings saved.' });
    if (result.error) return;
    element.reset();
    onSaved();
  }

  async function remove(providerId: string) {
    const result = await attempt(api.DELETE('/v1/subscribers/{subscriberId}/credentials/{providerId}', { params: { path: { subscriberId, providerId } } }));
    setMessage(result.error ? { error: result.error } : { ok: `${providerId} settings removed.` });
    onSaved();
  }

  return (
    <section className="panel" aria-labelledby="channels-title">
      <h2 id="channels-title">Channel settings</h2>
      {channels.length ? (
        <ul>
          {channels.map((c) => (
            <li key={`${c.providerId}-${c.integrationIdentifier}`}>
              {c.providerId}{c.integrationIdentifier ? ` (${c.integrationIdentifier})` : ''}: {describe(c)}{' '}
              {canWrite ? <button type="button" className="danger" onClick={() => void remove(c.providerId)} aria-label={`Remove ${c.providerId} settings`}>Remove</button> : null}
            </li>
          ))}
        </ul>
      ) : <p className="note">No chat or push channel settings.</p>}
      {targets.length ? (
        <form onSubmit={save} aria-label="Set channel settings">
          <fieldset disabled={!canWrite} className="row">
            <Field label="Integration">
              <select value={chosen?.identifier ?? ''} onChange={(e) => setTarget(e.target.value)}>
                {targets.map((i) => <option key={i._id} value={i.identifier}>{i.name} ({i.providerId}, {i.channel})</option>)}
              </select>
            </Field>
            {chosen?.channel === 'chat' ? (
              <Field label="Webhook URL"><input name="webhookUrl" type="url" required key={chosen.identifier} /></Field>
            ) : (
              <Field label="Device tokens (comma-separated)"><input name="deviceTokens" required key={chosen?.identifier} /></Field>
            )}
            <button type="submit">Save channel settings</button>
          </fieldset>
        </form>
      ) : <p className="note">Add a chat or push integration to set where this subscriber’s messages go.</p>}
      <Alert text={integrations.error ?? message.error} />
      {message.ok ? <p role="status">{message.ok}</p> : null}
    </section>
  );
}
