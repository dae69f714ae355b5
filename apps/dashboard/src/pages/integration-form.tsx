import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field } from '../components/ui';
import providers from '../generated/providers.json';

type Provider = { id: string; channel: string; required: string[] };
const CATALOGUE = providers as Provider[];
const CHANNELS = [...new Set(CATALOGUE.map((p) => p.channel))];
// Fields a person commonly sets beside the required ones, by provider.
const OPTIONAL: Record<string, string[]> = { nodemailer: ['user', 'password', 'senderName', 'secure'] };
const SECRET = /password|secret|token|key|serviceaccount/i;

/** Adds an integration: the provider catalogue by channel, and a field for each credential the provider needs. Credentials are write-only. */
export function IntegrationForm({ onCreated }: { onCreated(): void }) {
  const [channel, setChannel] = useState('email');
  const [providerId, setProviderId] = useState('nodemailer');
  const [error, setError] = useState<string>();
  const provider = CATALOGUE.find((p) => p.id === providerId);
  const fields = [...(provider?.required ?? []), ...(OPTIONAL[providerId] ?? [])];

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const credentials: Record<string, unknown> = {};
    for (const name of fields) {
      const value = String(form.get(name) ?? '');
      if (name === 'secure') credentials.secure = form.get(name) === 'on';
      else if (value) credentials[name] = value;
    }
    const body = {
      providerId,
      channel,
      name: String(form.get('name') || providerId),
      identifier: String(form.get('identifier') || '') || undefined,
      active: form.get('active') === 'on',
      credentials,
    };
    const result = await attempt(api.POST('/v1/integrations', { body: body as never }));
    setError(result.error);
    if (!result.error) {
      event.currentTarget?.reset();
      onCreated();
    }
  }

  return (
    <form className="panel" onSubmit={submit} aria-labelledby="add-integration">
      <h2 id="add-integration">Add an integration</h2>
      <div className="row">
        <Field label="Channel">
          <select value={channel} onChange={(e) => { setChannel(e.target.value); setProviderId(CATALOGUE.find((p) => p.channel === e.target.value)!.id); }}>
            {CHANNELS.map((c) => <option key={c}>{c}</option>)}
          </select>
        </Field>
        <Field label="Provider">
          <select value={providerId} onChange={(e) => setProviderId(e.target.value)}>
            {CATALOGUE.filter((p) => p.channel === channel).map((p) => <option key={p.id}>{p.id}</option>)}
          </select>
        </Field>
      </div>
      <div className="grid">
        <Field label="Name"><input name="name" /></Field>
        <Field label="Identifier (optional)"><input name="identifier" /></Field>
        {fields.map((name) =>
          name === 'secure' ? (
            <label key={name} className="check"><input type="checkbox" name="secure" /> TLS from the start (secure)</label>
          ) : (
            <Field key={`${providerId}-${name}`} label={`${name}${provider?.required.includes(name) ? ' (required)' : ''}`}>
              <input name={name} type={SECRET.test(name) ? 'password' : 'text'} autoComplete="off" required={provider?.required.includes(name)} />
            </Field>
          ),
        )}
        <label className="check"><input type="checkbox" name="active" defaultChecked /> Active</label>
      </div>
      <p className="note">Credentials are stored encrypted and never shown again.</p>
      <Alert text={error} />
      <button type="submit">Add integration</button>
    </form>
  );
}
