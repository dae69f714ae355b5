import { fillPath, type OpenApiDocument, operationsOf } from './openapi';

/**
 * Everything the API key can read back without choosing: every documented GET under /v1 or /v2 whose
 * path parameters `ids` names and that needs no query. Two equal snapshots mean nothing readable changed.
 * The Overview is left out: its windows are relative to now, so it changes while nothing else does.
 */
export function stateReader(doc: OpenApiDocument, request: (path: string) => Promise<Response>, ids: Record<string, string>) {
  const paths = operationsOf(doc)
    .filter((op) => op.method === 'GET' && /^\/v[12]\//.test(op.path) && !/^\/v1\/(inbox|health|overview)/.test(op.path))
    .filter((op) => op.parameters.every((p) => (p.in === 'path' ? p.name in ids : !p.required)))
    .map((op) => fillPath(op.path, ids));
  const snapshot = async () => Object.fromEntries(await Promise.all(paths.map(async (path) => {
    const res = await request(path);
    // An error body's time and request id differ on every read.
    const text = (await res.text()).replace(/"(timestamp|requestId)":"[^"]*"/g, '');
    return [path, `${res.status} ${text}`] as const;
  })));
  /** A snapshot once two in a row agree (deliveries of earlier triggers may still be landing). */
  const settled = async (timeoutMs = 15_000) => {
    const deadline = Date.now() + timeoutMs;
    let last = await snapshot();
    for (;;) {
      await new Promise((r) => setTimeout(r, 150));
      const next = await snapshot();
      if (JSON.stringify(next) === JSON.stringify(last) || Date.now() > deadline) return next;
      last = next;
    }
  };
  return { paths, snapshot, settled };
}
