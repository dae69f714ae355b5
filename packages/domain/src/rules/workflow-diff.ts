import type { Workflow, WorkflowDraft } from '../entities/workflow';

/** One difference a promotion would make, as a person reads it in a diff. */
export interface WorkflowChange {
  /** `name`, `payloadSchema`, `steps[welcome]`, `steps[welcome].controlValues`... */
  path: string;
  from: unknown;
  to: unknown;
}

const ATTRIBUTES = ['name', 'description', 'tags', 'active', 'critical', 'severity', 'origin', 'payloadSchema', 'preferences', 'data', 'isTranslationEnabled'] as const;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** What writing `next` over `current` changes (everything, field by field, when there is no current). */
export function workflowDiff(current: Workflow | null, next: WorkflowDraft): WorkflowChange[] {
  const changes: WorkflowChange[] = [];
  for (const key of ATTRIBUTES) {
    if (!same(current?.[key], next[key])) changes.push({ path: key, from: current ? (current[key] ?? null) : null, to: next[key] ?? null });
  }
  const before = new Map((current?.steps ?? []).map((s, i) => [s.stepId, { ...s, position: i }]));
  next.steps.forEach((step, position) => {
    const old = before.get(step.stepId);
    before.delete(step.stepId);
    const at = `steps[${step.stepId}]`;
    if (!old) return changes.push({ path: at, from: null, to: { type: step.type, position, controlValues: step.controlValues } });
    if (old.type !== step.type) changes.push({ path: `${at}.type`, from: old.type, to: step.type });
    if (old.position !== position) changes.push({ path: `${at}.position`, from: old.position, to: position });
    for (const key of ['name', 'controlValues', 'skip', 'schemas'] as const) {
      if (!same(old[key], step[key])) changes.push({ path: `${at}.${key}`, from: old[key] ?? null, to: step[key] ?? null });
    }
  });
  for (const [stepId, old] of before) changes.push({ path: `steps[${stepId}]`, from: { type: old.type, position: old.position }, to: null });
  return changes;
}

/** A diff as lines: `~ path: from -> to`, `+ path: to`, `- path: from`. */
export function formatDiff(changes: WorkflowChange[]): string[] {
  const show = (v: unknown) => JSON.stringify(v);
  return changes.map((c) => (c.from === null ? `+ ${c.path}: ${show(c.to)}` : c.to === null ? `- ${c.path}: ${show(c.from)}` : `~ ${c.path}: ${show(c.from)} -> ${show(c.to)}`));
}
