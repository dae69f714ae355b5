import { isObject, templateLeaves, type JsonObject } from './control-reader';
import { analyzeTemplate, type VariablePath } from './liquid-engine';
import type { RenderVariables } from './render-step';
import { VARIABLE_ROOTS } from './step-issues';

/** The distinct global variables the templates of some control values read, in first-use order. */
export function collectVariables(controlValues: JsonObject): VariablePath[] {
  const seen = new Map<string, VariablePath>();
  for (const [, template] of templateLeaves(controlValues)) {
    for (const variable of analyzeTemplate(template).variables) {
      const key = JSON.stringify(variable);
      if (!seen.has(key)) seen.set(key, variable);
    }
  }
  return [...seen.values()];
}

// Subscriber fields whose type is not a string: the example must still match the subscriber shape.
const SUBSCRIBER_NON_STRING: Record<string, unknown> = { isOnline: true, __v: 0, channels: [], topics: [], data: {} };
const DIGEST_EVENTS = 2;

function placeholder(variable: VariablePath): string {
  return `{{${variable.join('.')}}}`;
}

/** A value the payload schema suggests for a property path (its default, first example or const). */
function fromSchema(schema: JsonObject | null, path: VariablePath): unknown {
  let node: unknown = schema;
  for (const segment of path) {
    if (!isObject(node)) return undefined;
    node = typeof segment === 'number' ? node.items : isObject(node.properties) ? node.properties[segment] : undefined;
  }
  if (!isObject(node)) return undefined;
  if (node.default !== undefined) return node.default;
  if (Array.isArray(node.examples) && node.examples.length) return node.examples[0];
  return node.const;
}

function setPath(target: JsonObject, path: VariablePath, value: unknown): void {
  let at: Record<string | number, unknown> = target;
  path.forEach((segment, i) => {
    if (i === path.length - 1) {
      if (at[segment] === undefined || typeof at[segment] === 'string') at[segment] = value;
      return;
    }
    const next = at[segment];
    // A placeholder written for a shorter path gives way to the structure a longer one needs.
    if (next === null || typeof next !== 'object') at[segment] = typeof path[i + 1] === 'number' ? [] : {};
    at = at[segment] as Record<string | number, unknown>;
  });
}

function digestEvents(): JsonObject[] {
  return Array.from({ length: DIGEST_EVENTS }, (_, i) => ({ id: `event-${i + 1}`, time: new Date(0).toISOString(), payload: {} }));
}

/**
 * The `previewPayloadExample`: a value for every variable the step reads, so a preview renders
 * without any input. Payload values come from the payload schema when it has one, digest steps get
 * sample events, and everything else is the variable's own placeholder (`{{payload.orderId}}`).
 */
export function buildPreviewExample(variables: VariablePath[], payloadSchema: JsonObject | null): RenderVariables {
  const example: JsonObject = {};
  for (const variable of variables) {
    const [root, ...rest] = variable;
    if (!(VARIABLE_ROOTS as readonly unknown[]).includes(root)) continue;
    if (rest.length === 0) {
      example[root as string] ??= {};
      continue;
    }
    if (root === 'steps') {
      const step = (((example.steps ??= {}) as JsonObject)[String(rest[0])] ??= {}) as JsonObject;
      if (rest[1] === 'events' || rest[1] === 'eventCount') {
        step.events ??= digestEvents();
        step.eventCount ??= DIGEST_EVENTS;
      }
    }
    if (root === 'context') {
      const entry = ((example.context ??= {}) as JsonObject)[String(rest[0])];
      if (!isObject(entry)) ((example.context as JsonObject)[String(rest[0])] = { id: placeholder(['context', rest[0], 'id']) });
      if (rest.length === 1 || rest[1] === 'id') continue;
    }
    const schemaValue = root === 'payload' ? fromSchema(payloadSchema, rest) : undefined;
    const known = root === 'subscriber' && rest.length === 1 ? SUBSCRIBER_NON_STRING[String(rest[0])] : undefined;
    setPath(example, variable, schemaValue ?? known ?? placeholder(variable));
  }
  return example as RenderVariables;
}

/** `override` over `base`, objects merged key by key; arrays and scalars from `override` win. */
export function mergeDeep<T extends JsonObject>(base: T, override: JsonObject | undefined): T {
  if (!override) return base;
  const out: JsonObject = { ...base };
  for (const [key, value] of Object.entries(override)) {
    out[key] = isObject(value) && isObject(out[key]) ? mergeDeep(out[key] as JsonObject, value) : value;
  }
  return out as T;
}
