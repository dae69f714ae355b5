import { Liquid, type FilterImplOptions, type Template } from 'liquidjs';

/** Where the segments of a variable reference start; `a[b.c]` yields ['a', <dynamic>]. */
export type VariablePath = Array<string | number>;

const MAX_TEMPLATE_CHARS = 100_000;

/**
 * How a template's outputs are written. `text` as they are (subjects, SMS, chat, push, in-app);
 * `html` HTML-escaped (an email body): a payload or subscriber value is shown, never read as markup.
 * A template inserts trusted HTML there with `raw` as its last filter: `{{ payload.banner | raw }}`.
 */
export type RenderMode = 'text' | 'html';

/**
 * The Liquid engines, one per mode, built once and shared by preview and delivery: no templates from
 * files, unknown filters are errors (a typo must not render silently), undefined variables render
 * empty, and render time, memory and template size are bounded so a hostile template cannot stall
 * the process.
 */
function createEngine(mode: RenderMode): Liquid {
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
    // liquidjs appends this filter to every output whose last filter is not `raw`, when it parses.
    outputEscape: mode === 'html' ? 'escape' : undefined,
  });
  engine.registerFilter('pluralize', pluralize);
  engine.registerFilter('digest', digest);
  if (mode === 'html') {
    // What these return is escaped HTML already: escaping it again would show `&amp;lt;`.
    for (const name of ['escape', 'escape_once']) engine.registerFilter(name, { handler: engine.filters[name] as Exclude<FilterImplOptions, { raw: boolean }>, raw: true });
  }
  return engine;
}

/** `{{ count | pluralize: 'comment' }}` -> "3 comments"; an explicit plural for irregular words. */
function pluralize(count: unknown, singular: unknown = 'item', plural?: unknown): string {
  const n = Number(count);
  const word = n === 1 ? String(singular) : plural !== undefined ? String(plural) : `${String(singular)}s`;
  return `${Number.isFinite(n) ? n : 0} ${word}`;
}

function pick(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}

/**
 * `{{ steps.digest-step.events | digest: 2, 'payload.name' }}` -> "Ada, Bob and 3 others":
 * names the first `max` events by the value at `key` and counts the rest.
 */
function digest(events: unknown, max: unknown = 2, key: unknown = 'payload.name', separator: unknown = ', '): string {
  if (!Array.isArray(events)) return '';
  const limit = Math.max(1, Math.floor(Number(max)) || 2);
  const names = events.map((e) => pick(e, String(key))).filter((v) => v !== undefined && v !== null && v !== '').map(String);
  const shown = names.slice(0, limit);
  const rest = events.length - shown.length;
  if (rest <= 0) return shown.length > 1 ? `${shown.slice(0, -1).join(String(separator))} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
  return `${shown.join(String(separator))} and ${rest} ${rest === 1 ? 'other' : 'others'}`;
}

const engines: Record<RenderMode, Liquid> = { text: createEngine('text'), html: createEngine('html') };

/** liquidjs's `escape`, character for character: the plain path must write what liquidjs would. */
const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&#34;', "'": '&#39;' };
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);

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
 * A template of literal text and plain outputs (`{{ subscriber.firstName }}`: a dotted path, no
 * filter, no whitespace control) and nothing else: most notification texts. Rendered by looking the
 * paths up directly, which gives what liquidjs gives for the values it handles (strings, numbers,
 * booleans, null, each an own property of plain objects on the way) in a fraction of its time:
 * liquidjs evaluates every output through generators, a tenth of a 100,000-recipient fan-out's CPU
 * (cpu-prof: toValueSync, isIterator, _getFromScope...). Anything else, and any other value met on
 * the way (a missing key, an array, `size`), goes to liquidjs.
 */
interface PlainOutputs {
  /** The text around the outputs: one more than `paths`. */
  literals: string[];
  paths: string[][];
}

// Blank as liquidjs reads it (ASCII): JS's \s also takes characters liquidjs reads as part of a name (U+FEFF).
const PLAIN_OUTPUT = /(?<!\{)\{\{[ \t\n\r\v\f]*([A-Za-z_](?:[\w-]*\w)?(?:\.[A-Za-z_](?:[\w-]*\w)?)*)[ \t\n\r\v\f]*\}\}/g;
/** Liquid's literals, which read like a variable but are not one. */
const LITERALS = new Set(['true', 'false', 'nil', 'null', 'empty', 'blank']);

function plainOutputs(source: string): PlainOutputs | null {
  // Longer than liquidjs parses: it refuses the template, and so must this.
  if (source.length > MAX_TEMPLATE_CHARS) return null;
  const literals: string[] = [];
  const paths: string[][] = [];
  let at = 0;
  for (const match of source.matchAll(PLAIN_OUTPUT)) {
    literals.push(source.slice(at, match.index));
    paths.push(match[1].split('.'));
    at = match.index + match[0].length;
  }
  literals.push(source.slice(at));
  if (literals.some(hasLiquid) || paths.some(([first]) => LITERALS.has(first))) return null;
  return { literals, paths };
}

/** The plain template rendered, or undefined where a value needs liquidjs. */
function renderPlain({ literals, paths }: PlainOutputs, scope: Record<string, unknown>, mode: RenderMode): string | undefined {
  let out = literals[0];
  for (let i = 0; i < paths.length; i++) {
    let value: unknown = scope;
    for (const key of paths[i]) {
      if (value === null || typeof value !== 'object' || Array.isArray(value) || !Object.hasOwn(value, key)) return undefined;
      value = (value as Record<string, unknown>)[key];
    }
    if (typeof value === 'string') out += mode === 'html' ? escapeHtml(value) : value;
    else if (typeof value === 'number' || typeof value === 'boolean') out += String(value);
    else if (value !== null) return undefined;
    out += literals[i + 1];
  }
  return out;
}

interface Compiled {
  plain: PlainOutputs | null;
  /** Parsed by each mode's engine when first needed (the escape is part of what it parses): a plain template rendered directly never is. */
  parsed: Partial<Record<RenderMode, Template[]>>;
}

/**
 * Templates by source, most recently used last. liquidjs caches only templates it reads from files;
 * a step's templates are strings, and parsing one again on every delivery would cost about 40% of
 * its render (26 of 62 µs). Bounded by total source length, so hostile sizes cannot grow it.
 */
const compiled = new Map<string, Compiled>();
let compiledChars = 0;
const COMPILED_CHARS_MAX = 2_000_000;

function compile(source: string): Compiled {
  const hit = compiled.get(source);
  if (hit) {
    compiled.delete(source);
    compiled.set(source, hit);
    return hit;
  }
  const entry: Compiled = { plain: plainOutputs(source), parsed: {} };
  if (source.length <= COMPILED_CHARS_MAX / 10) {
    compiled.set(source, entry);
    compiledChars += source.length;
    for (const [oldest] of compiled) {
      if (compiledChars <= COMPILED_CHARS_MAX) break;
      compiled.delete(oldest);
      compiledChars -= oldest.length;
    }
  }
  return entry;
}

function parsed(entry: Compiled, source: string, mode: RenderMode): Template[] {
  return (entry.parsed[mode] ??= engines[mode].parse(source));
}

/** Static analysis without rendering: what a template reads and whether it parses. */
export function analyzeTemplate(source: string): TemplateAnalysis {
  if (!hasLiquid(source)) return { variables: [] };
  try {
    const segments = engines.text.globalVariableSegmentsSync(parsed(compile(source), source, 'text'));
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
 * Renders one template against a scope, its outputs written as `mode` says; throws a Liquid error
 * with a readable message. Synchronous: no tag or filter of these engines waits on anything (no file
 * system, every filter returns a value), and liquidjs's async render turned every tag into
 * promises: 10% of a fan-out's CPU.
 */
export function renderTemplate(source: string, scope: Record<string, unknown>, mode: RenderMode = 'text'): string {
  if (!hasLiquid(source)) return source;
  const entry = compile(source);
  return (entry.plain && renderPlain(entry.plain, scope, mode)) ?? renderWithLiquid(source, scope, mode, entry);
}

/** Renders with liquidjs alone, whatever the template: `renderTemplate`'s reference. */
export function renderWithLiquid(source: string, scope: Record<string, unknown>, mode: RenderMode = 'text', entry = compile(source)): string {
  return engines[mode].renderSync(parsed(entry, source, mode), scope) as string;
}

/** Liquid messages end with a source excerpt; keep the first line, which names the problem and position. */
export function cleanMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0];
}
