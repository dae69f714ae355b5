/** `{tenant: "acme", app: "web"}` -> ["app:web", "tenant:acme"]: sorted, so equality is order-insensitive. */
export function toContextKeys(context: Record<string, string | { id: string }> | undefined | null): string[] {
  if (!context) return [];
  return Object.entries(context)
    .map(([type, value]) => `${type}:${typeof value === 'string' ? value : value.id}`)
    .sort();
}

/** Normalises a contextKeys filter given in any order. */
export function normaliseContextKeys(keys: readonly string[] | undefined): string[] | undefined {
  return keys ? [...new Set(keys)].sort() : undefined;
}

/** ["tenant:acme"] -> {tenant: "acme"}: the context templates and conditions see (split at the first colon). */
export function contextFromKeys(keys: readonly string[]): Record<string, string> {
  return Object.fromEntries(keys.map((k) => [k.slice(0, k.indexOf(':')), k.slice(k.indexOf(':') + 1)]));
}
