import { Liquid, type Template } from 'liquidjs';

/** Where the segments of a variable reference start; `a[b.c]` yields ['a', <dynamic>]. */
export type VariablePath = Array<string | number>;

const MAX_TEMPLATE_CHARS = 100_000;

/**
 * The one Liquid engine, shared by preview and delivery: no templates from files, unknown
 * filters are errors (a typo must not render silently), undefined variables render empty, and
 * render time, memory and template size are bounded so a hostile template cannot stall the process.
 */
const engine = new Liquid({
  // No file system: {% include %}, {% render %} and {% layout %} find nothing. liquidjs reads them from
  // the working directory by default, which holds the data directory (and its encryption key).
  templates: {},
  strictFilters: true,
  strictVariables: false,
  ownPropertyOnly: true,
  parseLimit: MAX_TEMPLATE_CHARS,
  renderLimit: 1_000,
  memoryLimit: 16_000_000,
  timezoneOffset: 0,
});

/** `{{ count | pluralize: 'comment' }}` -> "3 comments"; an explicit plural for irregular words. */
engine.registerFilter('pluralize', (count: unknown, singular: unknown = 'item', plural?: unknown) => {
  const n = Number(count);
  const word = n === 1 ? String(singular) : plural !== undefined ? String(plural) : `${String(singular)}s`;
  return `${Number.isFinite(n) ? n : 0} ${word}`;
});

function pick(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}

/**
 * `{{ steps.digest-step.events | digest: 2, 'payload.name' }}` -> "Ada, Bob and 3 others":
 * names the first `max` events by the value at `key` and counts the rest.
 */
engine.registerFilter('digest', (events: unknown, max: unknown = 2, key: unknown = 'payload.name', separator: unknown = ', ') => {
  if (!Array.isArray(events)) return '';
  const limit = Math.max(1, Math.floor(Number(max)) || 2);
  const names = events.map((e) => pick(e, String(key))).filter((v) => v !== undefined && v !== null && v !== '').map(String);
  const shown = names.slice(0, limit);
  const rest = events.length - shown.length;
  if (rest <= 0) return shown.length > 1 ? `${shown.slice(0, -1).join(String(separator))} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
  return `${shown.join(String(separator))} and ${rest} ${rest === 1 ? 'other' : 'others'}`;
});

export interface TemplateAnalysis {
  /** Global variables the template reads (loop and assign locals excluded), leading static segments only. */
  variables: VariablePath[];
  /** Why the template does not parse (syntax, unknown filter), or undefined. */
  error?: string;
}

export function hasLiquid(text: string): boolean {
  return text.includes('{{') || text.includes('{%');
}

/**
 * Parsed templates by source, most recently used last. liquidjs caches only templates it reads from
 * files; a step's templates are strings, and parsing one again on every delivery cost about 40% of
 * its render (26 of 62 µs). Bounded by total source length, so hostile sizes cannot grow it.
 */
const parsed = new Map<string, Template[]>();
let parsedChars = 0;
const PARSED_CHARS_MAX = 2_000_000;

function parse(source: string): Template[] {
  const hit = parsed.get(source);
  if (hit) {
    parsed.delete(source);
    parsed.set(source, hit);
    return hit;
  }
  const templates = engine.parse(source);
  if (source.length <= PARSED_CHARS_MAX / 10) {
    parsed.set(source, templates);
    parsedChars += source.length;
    for (const [oldest] of parsed) {
      if (parsedChars <= PARSED_CHARS_MAX) break;
      parsed.delete(oldest);
      parsedChars -= oldest.length;
    }
  }
  return templates;
}

/** Static analysis without rendering: what a template reads and whether it parses. */
export function analyzeTemplate(source: string): TemplateAnalysis {
  if (!hasLiquid(source)) return { variables: [] };
  try {
    const segments = engine.globalVariableSegmentsSync(parse(source));
    const variables = segments.map((path) => {
      const stop = path.findIndex((s) => Array.isArray(s));
      return (stop === -1 ? path : path.slice(0, stop)) as VariablePath;
    });
    return { variables: variables.filter((v) => v.length > 0) };
  } catch (error) {
    return { variables: [], error: cleanMessage(error) };
  }
}

/**
 * Renders one template against a scope; throws a Liquid error with a readable message. Synchronous:
 * no tag or filter of this engine waits on anything (no file system, every filter returns a value),
 * and liquidjs's async render turned every tag into promises: 10% of a fan-out's CPU.
 */
export function renderTemplate(source: string, scope: Record<string, unknown>): string {
  if (!hasLiquid(source)) return source;
  return engine.renderSync(parse(source), scope) as string;
}

/** Liquid messages end with a source excerpt; keep the first line, which names the problem and position. */
export function cleanMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}
