import fc from 'fast-check';
import type { JsonSchema } from './openapi';

/** Ids the fuzz run creates first, so generated requests reach existing resources as well as missing ones. */
export const KNOWN_IDS = ['known', 'fuzz-topic', 'fuzz-workflow', 'in-app'];

/** Strings that have broken services before: NUL, lone surrogates, escapes, traversal, huge, empty. */
const NASTY = [
  '',
  ' ',
  '\0',
  'a\0b',
  '\ud800',
  'x\udfff',
  '\\u0000',
  '..',
  '../../etc/passwd',
  '%00',
  "'; DROP TABLE subscribers; --",
  '{{payload.x}}',
  '<script>alert(1)</script>',
  '\u202e\u0301',
  '💩',
  'null',
  '-1',
  '1e309',
  'x'.repeat(300),
];

const ID_LIKE = /^(name|to|key|topicKey|subscriberId|workflowId|identifier|integrationIdentifier|stepId)$/;

export const anyString = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 20 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 12 }) },
  { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
  { weight: 2, arbitrary: fc.constantFrom(...KNOWN_IDS) },
);

/**
 * Values that satisfy a JSON schema of the OpenAPI document (as far as the schema says: enums,
 * formats, bounds, required properties), for property-based requests. Refs resolve into `components`.
 */
export class SchemaArbitraries {
  constructor(private readonly components: Record<string, JsonSchema>) {}

  valid(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
    if (!schema || depth > 6) return depth > 6 ? fc.constant(null) : fc.jsonValue({ maxDepth: 2 });
    if (schema.$ref) return this.valid(this.components[String(schema.$ref).split('/').pop()!], depth + 1);
    if ('const' in schema) return fc.constant(schema.const);
    if (schema.enum) return fc.constantFrom(...(schema.enum as unknown[]));
    const union = schema.anyOf ?? schema.oneOf;
    if (union) return fc.oneof(...(union as JsonSchema[]).map((s) => this.valid(s, depth + 1)));
    if (schema.allOf) return this.valid(Object.assign({}, ...(schema.allOf as JsonSchema[]).map((s) => this.resolve(s))), depth + 1);
    const type = schema.type;
    if (Array.isArray(type)) return fc.oneof(...type.map((t: string) => this.valid({ ...schema, type: t }, depth)));
    switch (type) {
      case 'string':
        return this.string(schema);
      case 'integer':
      case 'number':
        return this.number(schema, type === 'integer');
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array': {
        const max = Math.min(schema.maxItems ?? 4, 4);
        return fc.array(this.valid(schema.items, depth + 1), { minLength: Math.min(schema.minItems ?? 0, max), maxLength: max });
      }
      case 'object':
        return this.object(schema, depth);
      default:
        return schema.properties ? this.object(schema, depth) : fc.jsonValue({ maxDepth: 2 });
    }
  }

  /** A valid value, or one broken in a way a careless or hostile client would break it. */
  mutated(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
    return this.valid(schema).chain((value) => mutate(value));
  }

  private resolve(schema: JsonSchema): JsonSchema {
    return schema.$ref ? this.resolve(this.components[String(schema.$ref).split('/').pop()!]) : schema;
  }

  private string(schema: JsonSchema): fc.Arbitrary<string> {
    const max = schema.maxLength ?? 40;
    const min = schema.minLength ?? 0;
    const bounded = (s: string) => s.length >= min && s.length <= max;
    const byFormat: Record<string, fc.Arbitrary<string>> = {
      email: fc.emailAddress(),
      uri: fc.webUrl(),
      url: fc.webUrl(),
      'date-time': fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString()),
      uuid: fc.uuid(),
    };
    const options: fc.Arbitrary<string>[] = [fc.string({ minLength: min, maxLength: Math.max(min, Math.min(max, 30)) }), fc.constantFrom(...KNOWN_IDS).filter(bounded)];
    if (schema.format && byFormat[schema.format]) options.push(byFormat[schema.format]);
    if (schema.pattern) {
      try {
        options.push(fc.stringMatching(new RegExp(schema.pattern)));
      } catch {
        // A pattern fast-check cannot generate from: plain strings only.
      }
    }
    options.push(anyString.filter(bounded));
    return fc.oneof(...options);
  }

  private number(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
    const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : -1_000);
    const max = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : 1_000);
    const lo = Math.max(min, -1e6);
    const hi = Math.min(max, 1e6);
    return integer ? fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }) : fc.double({ min: lo, max: hi, noNaN: true });
  }

  private object(schema: JsonSchema, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set<string>(schema.required ?? []);
    // Optional properties are left out two times in three: each one given is another chance for a
    // semantic refusal, and requests that pass validation reach deeper code.
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [name, property] of Object.entries(properties)) {
      // Properties that name a resource mostly name one the run created, so requests get past the lookup.
      const generated = this.valid(property, depth + 1);
      const value = ID_LIKE.test(name) ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...KNOWN_IDS) }, { weight: 2, arbitrary: generated }) : generated;
      model[name] = required.has(name) ? value : fc.option(value, { nil: undefined, freq: 2 });
    }
    const known = fc.record(model).map((record) => Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined)));
    if (!schema.additionalProperties || Object.keys(properties).length) return known;
    const extra = fc.dictionary(anyString, this.valid(schema.additionalProperties === true ? undefined : schema.additionalProperties, depth + 1), { maxKeys: 3 });
    return fc.tuple(known, extra).map(([a, b]) => ({ ...b, ...a }));
  }
}

/** One of the ways input goes wrong: a field dropped or retyped, NUL or a huge string put in, the whole thing replaced. */
export function mutate(value: unknown): fc.Arbitrary<unknown> {
  const wrong = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom<unknown>(null, '', '\0', 'a\0b', '\ud800', 0, -1, 1e308, true, [], {}, 'x'.repeat(70_000)),
    fc.integer({ min: 1, max: 200 }).map((levels) => nest(levels)),
  );
  if (value === null || typeof value !== 'object') return wrong;
  const keys = Object.keys(value);
  const options: fc.Arbitrary<unknown>[] = [wrong];
  if (keys.length) {
    const key = fc.constantFrom(...keys);
    options.push(key.map((k) => withKey(value, k, undefined)));
    options.push(fc.tuple(key, wrong).map(([k, w]) => withKey(value, k, w)));
    options.push(fc.tuple(key, fc.constant(null)).chain(([k]) => mutate((value as Record<string, unknown>)[k]).map((inner) => withKey(value, k, inner))));
  }
  options.push(fc.tuple(anyString, wrong).map(([k, w]) => (Array.isArray(value) ? [...value, w] : { ...value, [k]: w })));
  return fc.oneof(...options);
}

function withKey(value: object, key: string, replacement: unknown): unknown {
  if (Array.isArray(value)) {
    const copy = [...value];
    if (replacement === undefined) copy.splice(Number(key), 1);
    else copy[Number(key)] = replacement;
    return copy;
  }
  const copy: Record<string, unknown> = { ...value };
  if (replacement === undefined) delete copy[key];
  else copy[key] = replacement;
  return copy;
}

function nest(levels: number): unknown {
  let value: unknown = 'deep';
  for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { d: value };
  return value;
}
