import { isChannelType, type ChannelType, type WorkflowStepType } from '../entities/channel';
import type { ControlIssue, EvaluatedWorkflow, StepIssues, Workflow, WorkflowStatus, WorkflowStep } from '../entities/workflow';
import { isObject, templateLeaves, type JsonObject } from './control-reader';
import { analyzeTemplate, hasLiquid, type VariablePath } from './liquid-engine';

/** Roots a control value may read: what the delivery engine puts in scope when it renders. */
export const VARIABLE_ROOTS = ['payload', 'subscriber', 'steps', 'context', 'env', 'actor'] as const;

function requiredControls(type: WorkflowStepType, values: JsonObject): string[] {
  switch (type) {
    case 'in_app':
    case 'sms':
    case 'chat':
      return ['body'];
    case 'email':
    case 'push':
      return ['subject', 'body'];
    case 'digest':
      return values.type === 'timed' ? (values.timed ? [] : ['cron']) : ['amount', 'unit'];
    case 'delay':
      if (values.type === 'dynamic') return ['dynamicKey'];
      return values.type === 'timed' ? (values.dynamicKey || values.timed ? [] : ['cron']) : ['amount', 'unit'];
    case 'throttle':
      return values.type === 'dynamic' ? ['dynamicKey'] : ['amount', 'unit'];
    case 'http_request':
      return ['url'];
    case 'custom':
      return [];
  }
}

const ABSOLUTE = /^https?:\/\/[^\s/$.?#][^\s]*$/i;

/** A URL as written may contain Liquid; only its literal parts are checked. */
function urlProblem(value: string, allowRelative: boolean): string | null {
  const literal = value.trim();
  if (literal === '' || literal.startsWith('{{')) return null;
  const sample = literal.replace(/\{\{[\s\S]*?\}\}|\{%[\s\S]*?%\}/g, 'x');
  if (allowRelative && sample.startsWith('/')) return null;
  try {
    if (ABSOLUTE.test(sample) && new URL(sample)) return null;
  } catch {
    // falls through to the problem
  }
  return allowRelative ? 'must be an absolute http(s) URL or a path starting with /' : 'must be an absolute http(s) URL';
}

function urlControls(type: WorkflowStepType): Array<[string, boolean]> {
  if (type === 'http_request') return [['url', false]];
  if (type !== 'in_app') return [];
  return [['avatar', false], ['redirect.url', true], ['primaryAction.redirect.url', true], ['secondaryAction.redirect.url', true]];
}

function valueAt(values: JsonObject, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (isObject(at) ? at[key] : undefined), values);
}

function variableProblem(variable: VariablePath, previousStepIds: ReadonlySet<string>): string | null {
  const [root, next] = variable;
  if (!(VARIABLE_ROOTS as readonly unknown[]).includes(root)) {
    return `'${variable.join('.')}' is not available: variables start with ${VARIABLE_ROOTS.join(', ')}`;
  }
  if (root === 'steps' && typeof next === 'string' && !previousStepIds.has(next)) {
    return `'steps.${next}' is not an earlier step of this workflow`;
  }
  return null;
}

export interface IssueContext {
  /** Channels with an active integration in the workflow's environment. */
  activeChannels: ReadonlySet<ChannelType>;
  /** stepIds that run before this step: the only ones `steps.<id>` may name. */
  previousStepIds: ReadonlySet<string>;
}

/** What a step lacks to deliver: missing and malformed controls, unusable variables, a missing provider. */
export function computeStepIssues(step: Pick<WorkflowStep, 'type' | 'controlValues'>, context: IssueContext): StepIssues | null {
  const controls: Record<string, ControlIssue[]> = {};
  const add = (key: string, issue: ControlIssue) => (controls[key] ??= []).push(issue);
  const values = step.controlValues;

  for (const key of requiredControls(step.type, values)) {
    const value = values[key];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      add(key, { issueType: 'MISSING_VALUE', variableName: key, message: `${key} is required` });
    }
  }
  for (const name of ['primaryAction', 'secondaryAction']) {
    const value = values[name];
    if (step.type === 'in_app' && isObject(value) && !(typeof value.label === 'string' && value.label.trim())) {
      add(`${name}.label`, { issueType: 'MISSING_VALUE', variableName: `${name}.label`, message: `${name} needs a label` });
    }
  }
  for (const [path, allowRelative] of urlControls(step.type)) {
    const value = valueAt(values, path);
    const problem = typeof value === 'string' ? urlProblem(value, allowRelative) : null;
    if (problem) add(path, { issueType: 'INVALID_URL', variableName: path, message: `${path} ${problem}` });
  }
  for (const [path, text] of templateLeaves(values)) {
    if (!hasLiquid(text)) continue;
    const { variables, error } = analyzeTemplate(text);
    if (error) {
      const issueType = /undefined filter|filter/i.test(error) ? 'INVALID_FILTER_ARG_IN_VARIABLE' : 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE';
      add(path, { issueType, variableName: path, message: `${path} is not a valid Liquid template: ${error}` });
      continue;
    }
    for (const variable of variables) {
      const problem = variableProblem(variable, context.previousStepIds);
      if (problem) add(path, { issueType: 'ILLEGAL_VARIABLE_IN_CONTROL_VALUE', variableName: variable.join('.'), message: problem });
    }
  }

  const issues: StepIssues = {};
  if (Object.keys(controls).length) issues.controls = controls;
  if (isChannelType(step.type) && !context.activeChannels.has(step.type)) {
    issues.integration = {
      [step.type]: [{ issueType: 'MISSING_INTEGRATION', message: `No active ${step.type} integration in this environment` }],
    };
  }
  return Object.keys(issues).length ? issues : null;
}

/** Each step's issues and the workflow status they imply: ERROR when any step has one. */
export function evaluateWorkflow(workflow: Workflow, activeChannels: ReadonlySet<ChannelType>): EvaluatedWorkflow {
  const previous = new Set<string>();
  const steps = workflow.steps.map((step) => {
    const issues = computeStepIssues(step, { activeChannels, previousStepIds: previous });
    previous.add(step.stepId);
    return { ...step, issues };
  });
  const status: WorkflowStatus = steps.some((s) => s.issues) ? 'ERROR' : workflow.active ? 'ACTIVE' : 'INACTIVE';
  return { ...workflow, status, steps };
}
