import { useEffect, useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../api/client';
import { Alert, attempt, Field, Page, useLoad, ViewerNote } from '../components/ui';
import { useSession } from '../session';
import { StepPreview } from './step-preview';
import { TriggerTest } from './trigger-test';
import { draftOf, newStep, STEP_TYPES, StepForm, stepInput, type StepDraft } from './workflow-steps';

const CHANNELS = ['in_app', 'email', 'sms', 'chat', 'push'] as const;
type Channel = (typeof CHANNELS)[number];

/** Create (`/workflows/new`) or edit a workflow: its steps, their order and controls, preference defaults; preview and test it. */
export function WorkflowPage() {
  const { workflowId = 'new' } = useParams();
  const creating = workflowId === 'new';
  const { canWrite } = useSession();
  const navigate = useNavigate();
  const { data, reload } = useLoad(() => (creating ? Promise.resolve({ data: undefined, response: new Response() }) : api.GET('/v2/workflows/{workflowId}', { params: { path: { workflowId } } })), [workflowId]);
  const workflow = data?.data;
  const [name, setName] = useState('');
  const [identifier, setIdentifier] = useState('');
  const [steps, setSteps] = useState<StepDraft[]>([]);
  const [optOut, setOptOut] = useState<Set<Channel>>(new Set());
  const [readOnly, setReadOnly] = useState(false);
  const [addType, setAddType] = useState<string>('in_app');
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();

  useEffect(() => {
    if (!workflow) return;
    setName(workflow.name);
    setSteps(workflow.steps.map((s) => draftOf({ ...s, controlValues: s.controlValues as Record<string, unknown> })));
    const channels = workflow.preferences.default.channels as Record<string, { enabled?: boolean }>;
    setOptOut(new Set(CHANNELS.filter((c) => channels[c]?.enabled === false)));
    setReadOnly(workflow.preferences.default.all.readOnly);
  }, [workflow]);

  const move = (i: number, by: number) => {
    const next = [...steps];
    [next[i], next[i + by]] = [next[i + by], next[i]];
    setSteps(next);
  };

  async function save(event: FormEvent) {
    event.preventDefault();
    setSaved(undefined);
    let body;
    try {
      body = {
        name,
        steps: steps.map(stepInput),
        preferences: { workflow: { all: { enabled: true, readOnly }, channels: Object.fromEntries(CHANNELS.map((c) => [c, { enabled: !optOut.has(c) }])) } },
      };
    } catch (e) {
      return setError((e as Error).message);
    }
    const result = creating
      ? await attempt(api.POST('/v2/workflows', { body: { ...body, ...(identifier ? { workflowId: identifier } : {}) } as never }))
      : await attempt(api.PUT('/v2/workflows/{workflowId}', { params: { path: { workflowId } }, body: { ...body, workflowId } as never }));
    setError(result.error);
    if (result.error) return;
    setSaved('Saved.');
    if (creating) navigate(`/workflows/${(result.data as { data: { workflowId: string } }).data.workflowId}`);
    else await reload();
  }

  async function setActive(active: boolean) {
    const result = await attempt(api.PATCH('/v2/workflows/{workflowId}', { params: { path: { workflowId } }, body: { active } }));
    setError(result.error);
    await reload();
  }

  async function remove() {
    if (!window.confirm(`Delete the workflow ${workflowId}?`)) return;
    const result = await attempt(api.DELETE('/v2/workflows/{workflowId}', { params: { path: { workflowId } } }));
    if (result.error) return setError(result.error);
    navigate('/workflows');
  }

  return (
    <Page
      title={creating ? 'New workflow' : `Workflow ${workflow?.name ?? workflowId}`}
      actions={
        !creating && workflow && canWrite ? (
          <div className="row">
            <button type="button" className="secondary" onClick={() => void setActive(!workflow.active)}>{workflow.active ? 'Deactivate' : 'Activate'}</button>
            <button type="button" className="danger" onClick={() => void remove()}>Delete</button>
          </div>
        ) : undefined
      }
    >
      {!canWrite ? <ViewerNote /> : null}
      {workflow ? <p className="note">Identifier <code>{workflow.workflowId}</code> · status {workflow.status}</p> : null}
      <form onSubmit={save} aria-label="Workflow">
        <fieldset disabled={!canWrite}>
          <Field label="Name"><input value={name} onChange={(e) => setName(e.target.value)} required /></Field>
          {creating ? <Field label="Identifier (optional)" hint="Made from the name when empty."><input value={identifier} onChange={(e) => setIdentifier(e.target.value)} /></Field> : null}
          <fieldset>
            <legend>Channels on by default (subscribers’ preferences)</legend>
            {CHANNELS.map((c) => (
              <label key={c} className="check">
                <input type="checkbox" checked={!optOut.has(c)} onChange={(e) => { const next = new Set(optOut); if (e.target.checked) next.delete(c); else next.add(c); setOptOut(next); }} /> {c}
              </label>
            ))}
            <label className="check">
              <input type="checkbox" checked={readOnly} onChange={(e) => setReadOnly(e.target.checked)} /> Read-only: subscribers cannot change these
            </label>
          </fieldset>
        </fieldset>
        <ol className="steps" aria-label="Steps">
          {steps.map((step, i) => (
            <li key={step.key}>
              <StepForm step={step} disabled={!canWrite} onChange={(s) => setSteps(steps.map((x, j) => (j === i ? s : x)))} />
              {canWrite ? (
                <div className="row">
                  <button type="button" className="secondary" disabled={i === 0} onClick={() => move(i, -1)} aria-label={`Move ${step.name} up`}>Up</button>
                  <button type="button" className="secondary" disabled={i === steps.length - 1} onClick={() => move(i, 1)} aria-label={`Move ${step.name} down`}>Down</button>
                  <button type="button" className="danger" onClick={() => setSteps(steps.filter((_, j) => j !== i))} aria-label={`Remove ${step.name}`}>Remove</button>
                </div>
              ) : null}
            </li>
          ))}
        </ol>
        {canWrite ? (
          <div className="row">
            <Field label="Step type">
              <select value={addType} onChange={(e) => setAddType(e.target.value)}>
                {STEP_TYPES.map((t) => <option key={t}>{t}</option>)}
              </select>
            </Field>
            <button type="button" className="secondary" onClick={() => setSteps([...steps, newStep(addType)])}>Add step</button>
          </div>
        ) : null}
        <Alert text={error} />
        {saved ? <p role="status">{saved}</p> : null}
        <button type="submit" disabled={!canWrite}>{creating ? 'Create workflow' : 'Save'}</button>
      </form>
      {workflow ? (
        <>
          <StepPreview workflowId={workflow.workflowId} steps={workflow.steps} />
          <TriggerTest workflowId={workflow.workflowId} />
        </>
      ) : null}
    </Page>
  );
}
