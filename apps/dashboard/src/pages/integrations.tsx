import { useState } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Page, useLoad } from '../components/ui';
import { useSession } from '../session';
import { IntegrationConditions } from './integration-conditions';
import { IntegrationForm } from './integration-form';
import { IntegrationTest } from './integration-test';

/** Integrations by channel: active and primary switches, conditions, removal, and a form per provider to add one. */
export function IntegrationsPage() {
  const { canWrite } = useSession();
  const { data, error, reload } = useLoad(() => api.GET('/v1/integrations'), []);
  const [message, setMessage] = useState<string>();

  async function change(call: Promise<{ error?: unknown; data?: unknown; response: Response }>) {
    const result = await attempt(call);
    setMessage(result.error);
    await reload();
  }

  const integrations = data?.data ?? [];
  const channels = [...new Set(integrations.map((i) => i.channel ?? 'agent'))];
  return (
    <Page title="Integrations">
      <Alert text={error ?? message} />
      {channels.map((channel) => (
        <section key={channel} className="panel" aria-labelledby={`channel-${channel}`}>
          <h2 id={`channel-${channel}`}>{channel}</h2>
          <table>
            <thead><tr><th>Name</th><th>Provider</th><th>Identifier</th><th>Active</th><th>Primary</th><th><span className="sr-only">Actions</span></th></tr></thead>
            <tbody>
              {integrations.filter((i) => (i.channel ?? 'agent') === channel).map((i) => (
                <tr key={i._id}>
                  <td>{i.name}</td>
                  <td>{i.providerId}</td>
                  <td><code>{i.identifier}</code></td>
                  <td>
                    <input type="checkbox" aria-label={`${i.name} active`} checked={i.active} disabled={!canWrite} onChange={(e) => void change(api.PUT('/v1/integrations/{integrationId}', { params: { path: { integrationId: i._id } }, body: { active: e.target.checked } }))} />
                  </td>
                  <td>
                    {i.primary ? 'primary' : canWrite && i.active ? (
                      <button type="button" className="secondary" onClick={() => void change(api.POST('/v1/integrations/{integrationId}/set-primary', { params: { path: { integrationId: i._id } } }))}>Make primary</button>
                    ) : '—'}
                  </td>
                  <td>
                    {canWrite ? (
                      <button type="button" className="danger" aria-label={`Remove ${i.name}`} onClick={() => window.confirm(`Remove ${i.name}?`) && void change(api.DELETE('/v1/integrations/{integrationId}', { params: { path: { integrationId: i._id } } }))}>Remove</button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          {integrations.filter((i) => (i.channel ?? 'agent') === channel).map((i) => (
            <IntegrationConditions key={`${i._id}-${i.updatedAt}`} integration={i as never} disabled={!canWrite} onSaved={() => void reload()} />
          ))}
          {canWrite && channel !== 'in_app' && channel !== 'agent'
            ? integrations.filter((i) => i.channel === channel).map((i) => <IntegrationTest key={i._id} integrationId={i._id} name={i.name} />)
            : null}
        </section>
      ))}
      {canWrite ? <IntegrationForm onCreated={() => void reload()} /> : null}
    </Page>
  );
}
