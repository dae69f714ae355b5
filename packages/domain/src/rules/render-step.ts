import { assertNever, type WorkflowStepType } from '../entities/channel';
import { isObject, NON_TEMPLATE_KEYS, type JsonObject } from './control-reader';
import { singleLine } from './header-safe';
import { cleanMessage, renderTemplate } from './liquid-engine';
import { timingPreview } from './timing-preview';

/** What templates can read; the delivery engine fills it from the trigger, the preview from its payload. */
export interface RenderVariables {
  payload?: JsonObject;
  subscriber?: JsonObject;
  /** Earlier steps' output by stepId, e.g. `steps.digest-step.events`. */
  steps?: JsonObject;
  context?: JsonObject;
  env?: JsonObject;
  actor?: JsonObject | null;
}

export interface RenderError {
  title: string;
  message: string;
  hint: string;
}

export interface RedirectContent {
  url: string;
  target?: string;
}

export interface ActionContent {
  label?: string;
  redirect?: RedirectContent;
}

export interface InAppContent {
  subject?: string;
  body: string;
  avatar?: string;
  primaryAction?: ActionContent;
  secondaryAction?: ActionContent;
  redirect?: RedirectContent;
  data?: JsonObject;
}

export interface HttpRequestContent {
  method: string;
  url: string;
  headers: Array<{ key: string; value: string }>;
  /** The request body exactly as it is sent (JSON text for key/value bodies). */
  body: string;
}

export type StepContent =
  | { type: 'in_app'; preview: InAppContent }
  | { type: 'email'; preview: { subject: string; body: string } }
  | { type: 'sms' | 'chat'; preview: { body: string } }
  | { type: 'push'; preview: { subject: string; body: string } }
  /** The timing controls as configured: amount, unit, digestKey, lookBackWindow, cron... */
  | { type: 'digest' | 'delay' | 'throttle'; preview: JsonObject }
  | { type: 'http_request'; preview: HttpRequestContent }
  | { type: 'custom'; preview: JsonObject };

/** A step's rendered content, or why its templates could not render: never a thrown template error. */
export type StepRenderResult = StepContent | { type: WorkflowStepType; error: RenderError };

class TemplateFailure extends Error {
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
  }
}

/**
 * Renders every template leaf of a value, keeping its shape; enumerations pass through untouched.
 * The leaf at `htmlPath` is HTML: its outputs are escaped.
 */
function renderDeep(value: unknown, scope: Record<string, unknown>, path: string, htmlPath?: string): unknown {
  if (typeof value === 'string') {
    try {
      return renderTemplate(value, scope, path === htmlPath ? 'html' : 'text');
    } catch (error) {
      throw new TemplateFailure(path, cleanMessage(error));
    }
  }
  if (Array.isArray(value)) return value.map((v, i) => renderDeep(v, scope, `${path}[${i}]`, htmlPath));
  if (!isObject(value)) return value;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(value)) {
    out[key] = NON_TEMPLATE_KEYS.has(key) ? v : renderDeep(v, scope, path ? `${path}.${key}` : key, htmlPath);
  }
  return out;
}

/** An in-app preview's fields besides its body, in the order it lists them. */
const IN_APP_FIELDS = ['subject', 'avatar', 'primaryAction', 'secondaryAction', 'redirect', 'data'] as const;

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function requestBody(body: unknown): string {
  if (typeof body === 'string') return body;
  if (!Array.isArray(body)) return '';
  return JSON.stringify(Object.fromEntries(body.map((pair: { key: string; value: string }) => [pair.key, pair.value])));
}

function content(type: WorkflowStepType, c: JsonObject): StepContent {
  switch (type) {
    case 'in_app': {
      // Built key by key (absent ones left out), not by filtering entries: it runs for every recipient of a fan-out.
      const preview: Record<string, unknown> = { body: text(c.body) };
      for (const key of IN_APP_FIELDS) if (c[key] !== undefined) preview[key] = c[key];
      return { type, preview: preview as unknown as InAppContent };
    }
    case 'email':
    case 'push':
      // A subject (a push title) is one line: a value with CR/LF must not start a header of its own.
      return { type, preview: { subject: singleLine(text(c.subject)), body: text(c.body) } };
    case 'sms':
    case 'chat':
      return { type, preview: { body: text(c.body) } };
    case 'digest':
    case 'delay':
      return { type, preview: timingPreview(c) };
    case 'throttle':
      return { type, preview: c };
    case 'http_request':
      return {
        type,
        preview: {
          method: text(c.method) || 'POST',
          url: text(c.url),
          headers: (c.headers as HttpRequestContent['headers'] | undefined) ?? [],
          body: requestBody(c.body),
        },
      };
    case 'custom':
      return { type, preview: c };
    default:
      return assertNever(type, 'step type');
  }
}

/** Content that is already rendered (a bridge's outputs) shaped like rendered controls: no template runs. */
export function renderedStepContent(type: WorkflowStepType, values: JsonObject): StepContent {
  return content(type, values);
}

/**
 * The control holding HTML, whose outputs are escaped: an email's body, unless the step turns that
 * off with `disableOutputSanitization` (the interface's switch for trusting a step's output as it is).
 */
function htmlControl(type: WorkflowStepType, controlValues: JsonObject): string | undefined {
  return type === 'email' && controlValues.disableOutputSanitization !== true ? 'body' : undefined;
}

/**
 * THE renderer of step content, shared by the step preview and the delivery engine: renders each
 * template among a step's (validated) control values with LiquidJS against the variables and shapes
 * the result per step type. A template that fails to parse or render yields `error`, never a throw.
 * Values reach an email body HTML-escaped (`| raw` inserts trusted HTML) and a subject on one line;
 * text channels get them as they are.
 */
export function renderStepContent(type: WorkflowStepType, controlValues: JsonObject, variables: RenderVariables): StepRenderResult {
  const scope: Record<string, unknown> = { payload: {}, subscriber: {}, steps: {}, context: {}, env: {}, ...variables };
  try {
    const rendered = renderDeep(controlValues, scope, '', htmlControl(type, controlValues)) as JsonObject;
    return content(type, rendered);
  } catch (error) {
    if (!(error instanceof TemplateFailure)) throw error;
    return {
      type,
      error: {
        title: `Could not render ${error.path}`,
        message: error.reason,
        hint: `Check the Liquid syntax in ${error.path}: variables start with payload., subscriber., steps., context. or env., and filters must exist (e.g. default, date, pluralize, digest).`,
      },
    };
  }
}
