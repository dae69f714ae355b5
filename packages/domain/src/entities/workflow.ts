import { DomainError } from '../errors';
import type { ChannelType, Severity, WorkflowStepType } from './channel';
import type { WorkflowPreferenceDefaults } from './preferences';
import type { JsonLogicRule } from '../rules/json-logic';

export const WORKFLOW_STATUSES = ['ACTIVE', 'INACTIVE', 'ERROR'] as const;
export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export const WORKFLOW_ORIGINS = ['novu-cloud', 'novu-cloud-v1', 'external'] as const;
export type WorkflowOrigin = (typeof WORKFLOW_ORIGINS)[number];

/** Code-defined (`external`) and API-defined workflows never replace one another. */
export function crossesOrigin(existing: WorkflowOrigin, written: WorkflowOrigin): boolean {
  return (existing === 'external') !== (written === 'external');
}

/** The CONFLICT of a write of one origin naming a workflow from the other side of that line; `fields.workflowId` names it. */
export function originConflict(workflowId: string, existing: WorkflowOrigin): DomainError {
  const message =
    existing === 'external'
      ? `Workflow '${workflowId}' is synced from a bridge: its definition lives in code`
      : `Workflow '${workflowId}' was created through the API, not by a bridge: rename the workflow in code or delete the API one`;
  return new DomainError('CONFLICT', message, { workflowId: { messages: [message], value: workflowId } });
}

export const WORKFLOW_ORDER_FIELDS = ['createdAt', 'updatedAt', 'name', 'lastTriggeredAt'] as const;
export type WorkflowOrderBy = (typeof WORKFLOW_ORDER_FIELDS)[number];

type JsonObject = Record<string, unknown>;

/**
 * A step as stored. `controlValues` is normalised by `validateStepControls` for its type and never
 * holds `skip`: the skip condition lives beside it, where the delivery engine evaluates it.
 */
export interface WorkflowStep {
  /** Internal id; jobs refer to it, so it survives a PUT that keeps the stepId. */
  id: string;
  stepId: string;
  name: string;
  type: WorkflowStepType;
  controlValues: JsonObject;
  /** JSON Logic over {payload, subscriber}; a step whose rule is true is skipped. */
  skip: JsonLogicRule | boolean | null;
  /** A synced step's JSON schemas from the bridge; null for steps written through the API. */
  schemas?: StepSchemas | null;
}

/** What a bridge's discover said of a step: the schema its control values follow and its outputs'. */
export interface StepSchemas {
  controls: JsonObject;
  outputs: JsonObject;
}

/** What a caller writes about a workflow, steps aside. */
export interface WorkflowAttributes {
  /** The trigger identifier, unique per environment. */
  workflowId: string;
  name: string;
  description: string | null;
  tags: string[];
  active: boolean;
  critical: boolean;
  severity: Severity;
  /** JSON schema that trigger payloads are validated against; null = any payload. */
  payloadSchema: JsonObject | null;
  /** Default channel preferences, partial as written: a channel not named follows `all`. */
  preferences: WorkflowPreferenceDefaults;
  data: JsonObject | null;
  isTranslationEnabled: boolean;
}

export interface Workflow extends WorkflowAttributes {
  id: string;
  environmentId: string;
  origin: WorkflowOrigin;
  lastTriggeredAt: Date | null;
  lastPublishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  /** In execution order. */
  steps: WorkflowStep[];
}

/** What create and replace write: a workflow's attributes and its whole ordered step list. */
export interface WorkflowDraft extends WorkflowAttributes {
  origin?: WorkflowOrigin;
  steps: Array<Omit<WorkflowStep, 'id'>>;
}

/** The attributes a PATCH may change; undefined leaves a field as it is. */
export type WorkflowChanges = Partial<
  Pick<WorkflowDraft, 'name' | 'description' | 'tags' | 'active' | 'critical' | 'severity' | 'payloadSchema' | 'data' | 'isTranslationEnabled'>
>;

export const CONTROL_ISSUE_TYPES = ['ILLEGAL_VARIABLE_IN_CONTROL_VALUE', 'INVALID_FILTER_ARG_IN_VARIABLE', 'INVALID_URL', 'MISSING_VALUE'] as const;
export type ControlIssueType = (typeof CONTROL_ISSUE_TYPES)[number];

export interface ControlIssue {
  issueType: ControlIssueType;
  variableName?: string;
  message: string;
}

export interface IntegrationIssue {
  issueType: 'MISSING_INTEGRATION' | 'INBOX_NOT_CONNECTED';
  variableName?: string;
  message: string;
}

/** `controls` is keyed by control path (`body`, `primaryAction.label`), `integration` by channel. */
export interface StepIssues {
  controls?: Record<string, ControlIssue[]>;
  integration?: Partial<Record<ChannelType, IntegrationIssue[]>>;
}

export type EvaluatedStep = WorkflowStep & { issues: StepIssues | null };

/** A workflow with what its configuration lacks: per-step issues and the status they imply. */
export type EvaluatedWorkflow = Omit<Workflow, 'steps'> & { status: WorkflowStatus; steps: EvaluatedStep[] };

const MAX_IDENTIFIER = 100;

/** "Order shipped – EU!" -> "order-shipped-eu": the trigger identifier or stepId derived from a name. */
export function slugify(name: string, fallback = 'workflow'): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_IDENTIFIER)
    .replace(/-+$/, '');
  return slug || fallback;
}

export const IDENTIFIER_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** Problem with a trigger identifier or stepId as written, or null when it is usable. */
export function identifierProblem(value: string): string | null {
  if (value.length > MAX_IDENTIFIER) return `must be at most ${MAX_IDENTIFIER} characters`;
  if (!IDENTIFIER_PATTERN.test(value)) return 'must start with a letter or digit and contain only letters, digits, ".", "_" and "-"';
  return null;
}
