import { Ajv, type ValidateFunction } from 'ajv';
import type { FieldErrors } from '../errors';

// One compiler; compiled schemas are cached by their JSON text, so a hot workflow compiles once.
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new Map<string, ValidateFunction>();

/** Field errors of `payload` against a workflow's JSON schema; empty when valid or when there is no schema. */
export function validatePayload(schema: Record<string, unknown> | null, payload: unknown): FieldErrors {
  if (!schema) return {};
  const key = JSON.stringify(schema);
  let validate = compiled.get(key);
  if (!validate) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      return { payload: { messages: [`the workflow's payload schema is invalid: ${(error as Error).message}`] } };
    }
    if (compiled.size > 1000) compiled.clear();
    compiled.set(key, validate);
  }
  if (validate(payload)) return {};
  const errors: FieldErrors = {};
  for (const e of validate.errors ?? []) {
    const missing = e.keyword === 'required' ? `/${(e.params as { missingProperty: string }).missingProperty}` : '';
    const field = `payload${(e.instancePath + missing).replace(/\//g, '.')}`;
    (errors[field] ??= { messages: [] }).messages.push(e.message ?? 'is invalid');
  }
  return errors;
}
