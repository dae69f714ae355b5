import { Field } from '../components/ui';

/** A step as the editor holds it; `controlValues.skip` is the step's condition (JSON Logic), kept as text while edited. */
export interface StepDraft {
  key: string;
  stepId?: string;
  name: string;
  type: string;
  controlValues: Record<string, unknown>;
  skipText: string;
}

export const STEP_TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'delay', 'digest', 'throttle'] as const;
const TIME_UNITS = ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'];

/** The controls each step type takes: [name, label, kind]. */
const CONTROLS: Record<string, Array<[string, string, 'text' | 'textarea' | 'number' | 'unit']>> = {
  in_app: [['subject', 'Subject', 'text'], ['body', 'Body', 'textarea']],
  email: [['subject', 'Subject', 'text'], ['body', 'Body (HTML)', 'textarea']],
  sms: [['body', 'Body', 'textarea']],
  chat: [['body', 'Body', 'textarea']],
  push: [['subject', 'Title', 'text'], ['body', 'Body', 'textarea']],
  delay: [['amount', 'Amount', 'number'], ['unit', 'Unit', 'unit']],
  digest: [['amount', 'Amount', 'number'], ['unit', 'Unit', 'unit']],
  throttle: [['amount', 'Window', 'number'], ['unit', 'Unit', 'unit'], ['threshold', 'Threshold', 'number']],
};

let counter = 0;
export function newStep(type: string): StepDraft {
  const defaults: Record<string, unknown> = ['delay', 'digest', 'throttle'].includes(type) ? { amount: 1, unit: 'minutes', ...(type === 'throttle' ? { threshold: 1 } : {}) } : {};
  return { key: `new-${++counter}`, name: type === 'in_app' ? 'In-app' : type[0].toUpperCase() + type.slice(1), type, controlValues: defaults, skipText: '' };
}

export function draftOf(step: { stepId: string; name: string; type: string; controlValues: Record<string, unknown> }): StepDraft {
  const { skip, ...controlValues } = step.controlValues;
  return { key: step.stepId, stepId: step.stepId, name: step.name, type: step.type, controlValues, skipText: skip ? JSON.stringify(skip) : '' };
}

/** The API's step input; throws with the step's name when its condition is not JSON. */
export function stepInput(draft: StepDraft): Record<string, unknown> {
  let skip: unknown;
  try {
    skip = draft.skipText.trim() ? JSON.parse(draft.skipText) : undefined;
  } catch {
    throw new Error(`Step “${draft.name}”: the skip condition is not valid JSON`);
  }
  return { ...(draft.stepId ? { stepId: draft.stepId } : {}), name: draft.name, type: draft.type, controlValues: { ...draft.controlValues, ...(skip ? { skip } : {}) } };
}

/** One step's form: its name, its type's controls and its condition. */
export function StepForm({ step, disabled, onChange }: { step: StepDraft; disabled: boolean; onChange(step: StepDraft): void }) {
  const set = (name: string, value: unknown) => onChange({ ...step, controlValues: { ...step.controlValues, [name]: value } });
  return (
    <fieldset disabled={disabled} className="step-form">
      <legend>{step.name} ({step.type})</legend>
      <Field label="Step name">
        <input value={step.name} onChange={(e) => onChange({ ...step, name: e.target.value })} required />
      </Field>
      {(CONTROLS[step.type] ?? []).map(([name, label, kind]) => (
        <Field key={name} label={label}>
          {kind === 'textarea' ? (
            <textarea rows={4} value={String(step.controlValues[name] ?? '')} onChange={(e) => set(name, e.target.value)} />
          ) : kind === 'unit' ? (
            <select value={String(step.controlValues[name] ?? 'minutes')} onChange={(e) => set(name, e.target.value)}>
              {TIME_UNITS.map((u) => <option key={u}>{u}</option>)}
            </select>
          ) : kind === 'number' ? (
            <input type="number" min={1} value={Number(step.controlValues[name] ?? 1)} onChange={(e) => set(name, Number(e.target.value))} />
          ) : (
            <input value={String(step.controlValues[name] ?? '')} onChange={(e) => set(name, e.target.value)} />
          )}
        </Field>
      ))}
      <Field label="Skip when (JSON Logic, optional)" hint='e.g. {"==": [{"var": "payload.muted"}, true]}'>
        <input value={step.skipText} onChange={(e) => onChange({ ...step, skipText: e.target.value })} />
      </Field>
    </fieldset>
  );
}
