import type { StepVariables } from './step-handler';

const ROOTS = ['payload.', 'subscriber.', 'steps.', 'context.'];

/**
 * The value a step control names by path: `postId`, `payload.postId` or `{{ payload.postId }}` all
 * read the payload; `subscriber.` and the other variable roots read those.
 */
export function valueAt(variables: StepVariables, path: string): unknown {
  const bare = path.trim().replace(/^\{\{\s*/, '').replace(/\s*\}\}$/, '');
  const full = ROOTS.some((root) => bare.startsWith(root)) ? bare : `payload.${bare}`;
  return full.split('.').reduce<unknown>((v, key) => (v && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined), variables);
}

/** A key value as stored: strings as they are, anything else as JSON, none as ''. */
export function keyValue(variables: StepVariables, path: string | undefined): string {
  if (!path) return '';
  const value = valueAt(variables, path);
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
