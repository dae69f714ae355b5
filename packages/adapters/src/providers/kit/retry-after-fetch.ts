/**
 * A fetch for SDKs that take one, remembering the Retry-After of the last answer: their errors keep
 * the status but drop the headers. One per send, so concurrent sends never share what it saw.
 */
export function retryAfterFetch(): { fetch: typeof fetch; retryAfter(): string | undefined } {
  let seen: string | undefined;
  return {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      seen = response.headers.get('retry-after') ?? undefined;
      return response;
    },
    retryAfter: () => seen,
  };
}
