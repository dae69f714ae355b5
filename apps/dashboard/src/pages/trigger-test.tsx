import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';
import { api } from '../api/client';
import { Alert, attempt, Field } from '../components/ui';
import { useSession } from '../session';

/** "Trigger a test": sends the workflow to a chosen subscriber with a payload, then opens its activity. */
export function TriggerTest({ workflowId }: { workflowId: string }) {
  const { canWrite } = useSession();
  const navigate = useNavigate();
  const [subscriberId, setSubscriberId] = useState('');
  const [email, setEmail] = useState('');
  const [payload, setPayload] = useState('{}');
  const [error, setError] = useState<string>();

  async function trigger(event: FormEvent) {
    event.preventDefault();
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(payload || '{}');
    } catch {
      return setError('The payload is not valid JSON');
    }
    const to = email ? { subscriberId, email } : subscriberId;
    const result = await attempt(api.POST('/v1/events/trigger', { body: { name: workflowId, to, payload: parsed } as never }));
    if (result.error) return setError(result.error);
    const transactionId = (result.data as { data: { transactionId?: string } }).data.transactionId;
    navigate(`/activity?transactionId=${encodeURIComponent(transactionId ?? '')}`);
  }

  return (
    <section aria-labelledby="trigger-title" className="panel">
      <h2 id="trigger-title">Trigger a test</h2>
      <form onSubmit={trigger}>
        <fieldset disabled={!canWrite}>
          <div className="row">
            <Field label="Subscriber id"><input value={subscriberId} onChange={(e) => setSubscriberId(e.target.value)} required /></Field>
            <Field label="Subscriber email (optional)"><input type="email" value={email} onChange={(e) => setEmail(e.target.value)} /></Field>
          </div>
          <Field label="Payload (JSON)"><textarea rows={4} value={payload} onChange={(e) => setPayload(e.target.value)} /></Field>
          <Alert text={error} />
          <button type="submit">Trigger</button>
        </fieldset>
      </form>
    </section>
  );
}
