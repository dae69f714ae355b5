import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field } from '../components/ui';

type Rendered = { type?: string; preview?: Record<string, unknown>; error?: { title?: string; message?: string; hint?: string } };

/** Each step rendered by the server's preview as the payload is edited; an email's HTML in a sandboxed frame (no scripts, no same origin). */
export function StepPreview({ workflowId, steps }: { workflowId: string; steps: Array<{ stepId: string; name: string; type: string }> }) {
  const channelSteps = steps.filter((s) => ['in_app', 'email', 'sms', 'chat', 'push'].includes(s.type));
  const [stepId, setStepId] = useState(channelSteps[0]?.stepId ?? '');
  const [payload, setPayload] = useState('{}');
  const [rendered, setRendered] = useState<Rendered>();
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (!stepId) return;
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(payload || '{}');
    } catch {
      return setError('The payload is not valid JSON');
    }
    const timer = setTimeout(async () => {
      const result = await attempt(api.POST('/v2/workflows/{workflowId}/step/{stepId}/preview', { params: { path: { workflowId, stepId } }, body: { previewPayload: { payload: parsed } } }));
      setError(result.error);
      setRendered(result.data?.data.result as Rendered | undefined);
    }, 250);
    return () => clearTimeout(timer);
  }, [workflowId, stepId, payload]);

  if (!channelSteps.length) return null;
  const body = String(rendered?.preview?.body ?? '');
  return (
    <section aria-labelledby="preview-title" className="panel">
      <h2 id="preview-title">Preview</h2>
      <div className="row">
        <Field label="Step">
          <select value={stepId} onChange={(e) => setStepId(e.target.value)}>
            {channelSteps.map((s) => <option key={s.stepId} value={s.stepId}>{s.name} ({s.type})</option>)}
          </select>
        </Field>
        <Field label="Preview payload (JSON)">
          <textarea rows={3} value={payload} onChange={(e) => setPayload(e.target.value)} />
        </Field>
      </div>
      <Alert text={error ?? (rendered?.error ? `${rendered.error.title ?? ''}: ${rendered.error.message ?? ''}` : undefined)} />
      {rendered?.preview ? (
        <div className="preview" data-testid="preview">
          {rendered.preview.subject ? <p><strong>{String(rendered.preview.subject)}</strong></p> : null}
          {rendered.type === 'email' ? <iframe title="Email preview" sandbox="" srcDoc={body} /> : <p>{body}</p>}
        </div>
      ) : null}
    </section>
  );
}
