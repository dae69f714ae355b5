import jsonLogic from 'json-logic-js';

export type JsonLogicRule = Record<string, unknown>;

// Operators json-logic-js ships with; a rule using any other is rejected when written.
const OPERATORS = new Set([
  '==', '===', '!=', '!==', '>', '>=', '<', '<=', '!', '!!', 'or', 'and', '?:', 'if', 'in', 'cat', 'substr',
  '+', '-', '*', '/', '%', 'min', 'max', 'merge', 'var', 'missing', 'missing_some', 'log', 'all', 'none', 'some',
  'map', 'reduce', 'filter',
]);

/** Problems with a rule as written (unknown operator, malformed shape); empty when valid. */
export function validateJsonLogic(rule: unknown, path = 'condition'): string[] {
  if (rule === null || typeof rule !== 'object' || Array.isArray(rule)) {
    return typeof rule === 'boolean' ? [] : [`${path} must be a JSON Logic object`];
  }
  const problems: string[] = [];
  const visit = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((child, i) => visit(child, `${at}[${i}]`));
    if (node === null || typeof node !== 'object') return;
    const keys = Object.keys(node);
    if (keys.length !== 1) return void problems.push(`${at} must have exactly one operator, found ${keys.length}`);
    const [op] = keys;
    if (!OPERATORS.has(op)) return void problems.push(`${at}: unknown operator '${op}'`);
    visit((node as Record<string, unknown>)[op], `${at}.${op}`);
  };
  visit(rule, path);
  return problems;
}

export type ConditionOutcome = { matched: boolean; error?: string };

/** Evaluates a rule against data; a rule that throws counts as not matched, with the reason. */
export function evaluateJsonLogic(rule: JsonLogicRule | boolean | null | undefined, data: unknown): ConditionOutcome {
  if (rule === null || rule === undefined) return { matched: true };
  if (typeof rule === 'boolean') return { matched: rule };
  try {
    return { matched: jsonLogic.truthy(jsonLogic.apply(rule as jsonLogic.RulesLogic, data)) };
  } catch (error) {
    return { matched: false, error: `condition failed: ${(error as Error).message}` };
  }
}
