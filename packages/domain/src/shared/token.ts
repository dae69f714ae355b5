declare const names: unique symbol;

/**
 * A dependency-injection token: a symbol that also carries the type of what it names, so the
 * composition root's bindings are type-checked against the constructors they feed.
 */
export type Token<T> = symbol & { readonly [names]?: T };

/** `Symbol.for(name)` typed as a token of `T`; the same name always gives the same symbol. */
export function token<T>(name: string): Token<T> {
  return Symbol.for(name) as Token<T>;
}
