import type { DeliveryStep, DeliveryWorkflow } from '@herald/domain';

export interface StepRow {
  id: string;
  step_id: string;
  name: string;
  type: DeliveryStep['type'];
  active: boolean;
  position: number;
  control_values: Record<string, unknown>;
  skip: DeliveryStep['skip'];
  filters: DeliveryStep['filters'];
}

/** A workflow_steps row (as JSON from SQL) as the engine runs it. */
export function toDeliveryStep(s: StepRow): DeliveryStep {
  return {
    id: s.id,
    stepId: s.step_id,
    name: s.name,
    type: s.type,
    active: s.active,
    position: s.position,
    controlValues: s.control_values ?? {},
    skip: s.skip ?? null,
    filters: s.filters ?? [],
  };
}

/** The columns every notification of a workflow shares, and the job template of its active steps. */
export function notificationShape(workflow: DeliveryWorkflow) {
  const active = workflow.steps.filter((s) => s.active);
  return {
    channels: [...new Set(active.map((s) => s.type))],
    steps: active.map((s, ord) => ({ id: s.id, step_id: s.stepId, type: s.type, position: s.position, ord })),
  };
}
