import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field } from '../components/ui';

type Result = { sent: boolean; providerId: string; providerMessageId?: string | null; error?: string; raw: string | null };

/** "Send a test" through one integration: one message to an address the person types, and the provider's answer as it gave it. */
export function IntegrationTest({ integrationId, name }: { integrationId: string; name: string }) {
  const [to, setTo] = useState('');
  const [result, setResult] = useState<Result>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function send(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    const answer = await attempt(api.POST('/v1/integrations/{integrationId}/test', { params: { path: { integrationId } }, body: { to } }));
    setBusy(false);
    setError(answer.error);
    setResult((answer.data as { data: Result } | undefined)?.data);
  }

  return (
    <form className="row" onSubmit={send} aria-label={`Send a test through ${name}`}>
      <Field label={`Test recipient for ${name}`}><input value={to} onChange={(e) => setTo(e.target.value)} required /></Field>
      <button type="submit" className="secondary" disabled={busy}>Send a test</button>
      <Alert text={error} />
      {result ? (
        <p role="status" data-testid="test-result">
          {result.sent ? `Sent${result.providerMessageId ? ` (${result.providerMessageId})` : ''}.` : `Refused: ${result.error ?? 'no reason given'}.`}{' '}
          {result.raw ? <code className="raw">{result.raw}</code> : null}
        </p>
      ) : null}
    </form>
  );
}
