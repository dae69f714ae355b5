import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';

/** The parts of an OpenAPI 3.1 document the black-box tests read. */
export type JsonSchema = Record<string, any>;

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: JsonSchema;
}

export interface Operation {
  method: string;
  /** OpenAPI template, `/v2/subscribers/{subscriberId}`. */
  path: string;
  parameters: Parameter[];
  /** The JSON request body's schema, when the operation takes one. */
  body?: { schema: JsonSchema; required: boolean };
  /** Documented statuses -> JSON schema of the body (undefined: no body documented). */
  responses: Record<string, JsonSchema | undefined>;
  /** Declared `x-provider-defined-body`: a third party's format (provider receipts), read raw, not a Herald schema. */
  providerBody: boolean;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operationsOf(doc: OpenApiDocument): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const json = op.requestBody?.content?.['application/json'];
      const responses: Operation['responses'] = {};
      for (const [status, response] of Object.entries<any>(op.responses ?? {})) responses[status] = response.content?.['application/json']?.schema;
      operations.push({
        method: method.toUpperCase(),
        path,
        parameters: [...(item.parameters ?? []), ...(op.parameters ?? [])],
        body: json ? { schema: json.schema ?? {}, required: Boolean(op.requestBody.required) } : undefined,
        responses,
        providerBody: op['x-provider-defined-body'] === true,
      });
    }
  }
  return operations;
}

/** A URL path from the template, each value percent-encoded unless `raw` says it is already. */
export function fillPath(template: string, values: Record<string, string>, raw = false): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => (raw ? values[name] : encodeURIComponent(values[name] ?? 'x')));
}

/**
 * Validates response bodies against the document: one ajv (JSON Schema 2020-12, the dialect of
 * OpenAPI 3.1) holding the document's components, so `$ref`s resolve.
 */
export class ResponseValidator {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<JsonSchema, ValidateFunction>();

  constructor(doc: OpenApiDocument) {
    this.ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: false });
    this.ajv.addSchema({ $id: 'doc', components: doc.components ?? {} });
  }

  /** Null when `body` matches `schema`, else ajv's first complaint. */
  check(schema: JsonSchema, body: unknown): string | null {
    let validate = this.compiled.get(schema);
    if (!validate) {
      validate = this.ajv.compile(rebase(schema));
      this.compiled.set(schema, validate);
    }
    if (validate(body)) return null;
    const [error] = validate.errors ?? [];
    return `${error?.instancePath || '/'} ${error?.message} ${JSON.stringify(error?.params)}`;
  }
}

/** `#/components/...` refs point into the document registered as `doc`. */
function rebase(schema: JsonSchema): JsonSchema {
  return JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/'));
}
