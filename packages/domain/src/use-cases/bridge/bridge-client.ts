import type { BridgeAnswer, BridgeEvent, BridgeExecution, BridgeFailure } from '../../entities/bridge';
import { OutboundRefusedError, type HttpClient } from '../../ports/http-client';
import { isObject } from '../../rules/control-reader';
import { signRequestBody } from '../../rules/http-signature';

export const BRIDGE_TIMEOUT_MS = 10_000;
const RETRYABLE_STATUSES = new Set([408, 425, 429]);

/** Where a bridge is and the secret key it verifies signatures with (the environment's, as the framework expects). */
export interface BridgeTarget {
  url: string;
  secretKey: string;
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
}

function failure(status: number | null, body: string, fallback: string): BridgeFailure {
  const answer = parse(body);
  const message = isObject(answer) && typeof answer.message === 'string' && answer.message ? answer.message : fallback;
  const code = isObject(answer) && typeof answer.code === 'string' ? answer.code : null;
  const retryable = status === null || status >= 500 || RETRYABLE_STATUSES.has(status);
  return { status, code, message, retryable, raw: body ? body.slice(0, 4000) : null };
}

/**
 * Calls a bridge the way the framework's `serve` handler expects: `?action=` with workflowId and
 * stepId in the query, JSON bodies for POST, and every request signed in the `novu-signature`
 * header (`t=<ms>,v1=<HMAC-SHA256 of "<t>.<JSON body>">`, `{}` for a GET) with the secret key.
 * Calls go through the outbound guard of `http` (private addresses only when the operator allows
 * them) within BRIDGE_TIMEOUT_MS. Never throws: an unreachable or failing bridge is a BridgeFailure.
 */
export class BridgeClient {
  constructor(private readonly http: HttpClient) {}

  discover(target: BridgeTarget): Promise<BridgeAnswer<unknown>> {
    return this.call(target, 'GET', { action: 'discover' }, undefined);
  }

  async execute(target: BridgeTarget, action: 'execute' | 'preview', workflowId: string, stepId: string, event: BridgeEvent): Promise<BridgeAnswer<BridgeExecution>> {
    const answer = await this.call(target, 'POST', { action, workflowId, stepId }, event);
    if (!answer.ok) return answer;
    const value = answer.value;
    if (!isObject(value) || !isObject(value.outputs)) {
      return { ok: false, failure: { status: 200, code: null, message: `the bridge's ${action} answer has no outputs object`, retryable: false, raw: JSON.stringify(value).slice(0, 4000) } };
    }
    const options = isObject(value.options) ? value.options : {};
    return { ok: true, value: { outputs: value.outputs, providers: isObject(value.providers) ? value.providers : {}, options: { skip: options.skip === true } } };
  }

  private async call(target: BridgeTarget, method: 'GET' | 'POST', query: Record<string, string>, event: BridgeEvent | undefined): Promise<BridgeAnswer<unknown>> {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      return { ok: false, failure: { status: null, code: null, message: `'${target.url}' is not a valid bridge URL`, retryable: false, raw: null } };
    }
    for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
    // The framework verifies the HMAC over JSON.stringify of the body it parsed: the text sent here.
    const body = JSON.stringify(event ?? {});
    const signature = signRequestBody(target.secretKey, body, Date.now());
    try {
      const response = await this.http.request({
        method,
        url: url.toString(),
        headers: { 'content-type': 'application/json', 'novu-signature': signature, 'x-novu-signature': signature },
        body: method === 'POST' ? body : undefined,
        timeoutMs: BRIDGE_TIMEOUT_MS,
      });
      if (response.status < 200 || response.status >= 300) {
        return { ok: false, failure: failure(response.status, response.body, `the bridge answered ${response.status}`) };
      }
      const value = parse(response.body);
      if (value === undefined) return { ok: false, failure: { ...failure(response.status, response.body, 'the bridge answered with something other than JSON'), retryable: false } };
      return { ok: true, value };
    } catch (error) {
      // The outbound guard's refusal is final; a network failure or timeout may pass.
      const refused = error instanceof OutboundRefusedError;
      return { ok: false, failure: { status: null, code: null, message: `could not reach the bridge: ${(error as Error).message}`, retryable: !refused, raw: null } };
    }
  }
}
