/**
 * Turns a batch operation into a per-item call: calls made in the same turn of the event loop (the
 * step handlers of one slice start together) go to `batch` as one list. `batch` returns one result
 * per item, in order; if it throws, every caller in that batch gets the error.
 */
export function coalesce<I, O>(batch: (items: I[]) => Promise<O[]>): (item: I) => Promise<O> {
  let pending: Array<{ item: I; resolve: (o: O) => void; reject: (e: unknown) => void }> | null = null;
  return (item) =>
    new Promise<O>((resolve, reject) => {
      if (!pending) {
        pending = [];
        setTimeout(() => {
          const calls = pending ?? [];
          pending = null;
          batch(calls.map((c) => c.item)).then(
            (results) => calls.forEach((c, i) => c.resolve(results[i])),
            (error) => calls.forEach((c) => c.reject(error)),
          );
        }, 0);
      }
      pending.push({ item, resolve, reject });
    });
}
