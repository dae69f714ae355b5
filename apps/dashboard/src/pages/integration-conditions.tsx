import { useState, type FormEvent } from 'react';
import { api } from '../api/client';
import { Alert, attempt, Field } from '../components/ui';
import filters from '../generated/filters.json';

type Part = { field: string; value: string; operator: string; on: string };
type Group = { isNegated: boolean; type: string; value: 'AND' | 'OR'; children: Part[] };

const blank = (): Part => ({ on: 'subscriber', field: '', operator: 'EQUAL', value: '' });

/**
 * Edits an integration's conditions (the interface's StepFilter groups): when they are set, the
 * integration is chosen only for recipients and payloads that match. The first group is edited here;
 * further groups (sent by the API) are kept as they are.
 */
export function IntegrationConditions({ integration, disabled, onSaved }: { integration: { _id: string; name: string; conditions: Group[] }; disabled: boolean; onSaved(): void }) {
  const [first, ...rest] = integration.conditions;
  const [join, setJoin] = useState<'AND' | 'OR'>(first?.value ?? 'AND');
  const [parts, setParts] = useState<Part[]>(first?.children ?? []);
  const [message, setMessage] = useState<{ error?: string; ok?: string }>({});
  const set = (i: number, change: Partial<Part>) => setParts(parts.map((p, j) => (j === i ? { ...p, ...change } : p)));

  async function save(event: FormEvent) {
    event.preventDefault();
    const group: Group = { isNegated: first?.isNegated ?? false, type: first?.type ?? 'STATEMENT', value: join, children: parts };
    const conditions = parts.length ? [group, ...rest] : rest;
    const result = await attempt(api.PUT('/v1/integrations/{integrationId}', { params: { path: { integrationId: integration._id } }, body: { conditions: conditions as never } }));
    setMessage(result.error ? { error: result.error } : { ok: 'Conditions saved.' });
    if (!result.error) onSaved();
  }

  return (
    <details className="panel">
      <summary>Conditions of {integration.name} ({parts.length})</summary>
      <form onSubmit={save} aria-label={`Conditions of ${integration.name}`}>
        <fieldset disabled={disabled}>
          <Field label="Match">
            <select value={join} onChange={(e) => setJoin(e.target.value as 'AND' | 'OR')}>
              <option value="AND">all of these (AND)</option>
              <option value="OR">any of these (OR)</option>
            </select>
          </Field>
          {parts.map((p, i) => (
            <div className="row" key={i} role="group" aria-label={`Condition ${i + 1}`}>
              <Field label="On">
                <select value={p.on} onChange={(e) => set(i, { on: e.target.value })}>
                  {filters.sources.map((s) => <option key={s}>{s}</option>)}
                </select>
              </Field>
              <Field label="Field"><input value={p.field} required onChange={(e) => set(i, { field: e.target.value })} /></Field>
              <Field label="Operator">
                <select value={p.operator} onChange={(e) => set(i, { operator: e.target.value })}>
                  {filters.operators.map((o) => <option key={o}>{o}</option>)}
                </select>
              </Field>
              <Field label="Value"><input value={p.value} onChange={(e) => set(i, { value: e.target.value })} /></Field>
              <button type="button" className="danger" onClick={() => setParts(parts.filter((_, j) => j !== i))} aria-label={`Remove condition ${i + 1}`}>Remove</button>
            </div>
          ))}
          <div className="row">
            <button type="button" className="secondary" onClick={() => setParts([...parts, blank()])}>Add condition</button>
            <button type="submit">Save conditions</button>
          </div>
        </fieldset>
        <Alert text={message.error} />
        {message.ok ? <p role="status">{message.ok}</p> : null}
      </form>
    </details>
  );
}
