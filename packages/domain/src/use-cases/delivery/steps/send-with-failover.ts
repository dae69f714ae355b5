import type { ExecutionDetailDraft } from '../../../entities/delivery';
import type { Integration } from '../../../entities/integration';
import type { RetryPolicy } from '../../../entities/retry-policy';
import { DomainError } from '../../../errors';
import { ProviderError, type OutboundMessage, type ProviderReceipt, type ProviderRegistry } from '../../../ports/delivery-provider';
import { retryDelayMs } from '../../../rules/retry-delay';
import type { SendGate } from './send-gate';

/** Where a message's delivery stands between runs of its job (kept in the job's delivery state). */
export interface DeliveryState {
  /** The integration the last send went to. */
  integrationId: string | null;
  /** Consecutive transient failures of that integration. */
  streak: number;
  /** Sends so far, over every integration. */
  sends: number;
  /** Integrations that refused permanently (bad credentials, bad recipient): never tried again. */
  excluded: string[];
}

type Attempted =
  | { kind: 'sent'; integration: Integration; receipt: ProviderReceipt }
  | { kind: 'failed'; providerId: string }
  | { kind: 'retry'; rerunAt: Date; state: DeliveryState; providerId: string };

export type SendOutcome = Attempted & {
  /** Push tokens any provider reported invalid during this run, with the provider that said so. */
  invalidTokens: Array<{ providerId: string; tokens: string[] }>;
};

export interface SendInput {
  candidates: Integration[];
  /** The message for one integration (its overrides differ per provider). */
  messageFor(integration: Integration): OutboundMessage;
  state: DeliveryState | null;
  policy: RetryPolicy;
  /** This run's number (1 on the first run): the retry number of the next delay. */
  run: number;
  now: Date;
  random: () => number;
  /** Keeps each integration to its send rate and connections; none: no bounds. */
  gate?: SendGate;
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : ms < 120_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`;
}

function normalise(error: unknown): ProviderError {
  if (error instanceof ProviderError) return error;
  // Credentials no configured key opens will not open on a retry: the next integration, at once.
  if (error instanceof DomainError && error.code === 'CREDENTIALS_UNREADABLE') return new ProviderError(error.message, false);
  // An adapter let something through unnormalised: treat it as transient, but never keep its raw form.
  return new ProviderError(`unexpected provider failure: ${(error as Error)?.message ?? String(error)}`, true);
}

/**
 * Sends through the candidates in order (primary first): a transient failure is retried later with
 * exponential backoff, the same integration until it has failed `failoverAfter` times in a row, then
 * the next one at once; a permanent failure moves to the next at once and is never retried. Every
 * send is one execution detail in `details`.
 */
export async function sendWithFailover(input: SendInput, providers: ProviderRegistry, details: ExecutionDetailDraft[]): Promise<SendOutcome> {
  const invalidTokens: SendOutcome['invalidTokens'] = [];
  const outcome = await attempt(input, providers, details, (providerId, tokens) => tokens?.length && invalidTokens.push({ providerId, tokens }));
  return { ...outcome, invalidTokens };
}

async function attempt(
  input: SendInput,
  providers: ProviderRegistry,
  details: ExecutionDetailDraft[],
  reportInvalid: (providerId: string, tokens: string[] | undefined) => unknown,
): Promise<Attempted> {
  const { candidates, policy } = input;
  const state: DeliveryState = input.state ? { ...input.state, excluded: [...input.state.excluded] } : { integrationId: null, streak: 0, sends: 0, excluded: [] };
  const usable = (i: Integration) => !state.excluded.includes(i.id);
  const after = (current: Integration) => {
    const at = candidates.indexOf(current);
    return [...candidates.slice(at + 1), ...candidates.slice(0, at)].find(usable) ?? null;
  };
  let current = candidates.find((i) => i.id === state.integrationId && usable(i)) ?? candidates.find(usable) ?? null;
  if (current && current.id !== state.integrationId) state.streak = 0;
  while (current) {
    const integration: Integration = current;
    state.sends++;
    state.integrationId = integration.id;
    const name = `${integration.providerId} (${integration.identifier})`;
    const provider = providers.get(integration.providerId);
    const turn = provider && input.gate ? await input.gate.enter(integration) : undefined;
    if (turn && 'retryInMs' in turn) {
      // Over the integration's send rate: queued for its next free slot, not an attempt.
      state.sends--;
      const rate = integration.configurations.sendRatePerSecond;
      details.push({ status: 'Queued', source: 'Internal', detail: `queued: ${name} sends at most ${rate}/s, next slot in ${seconds(turn.retryInMs)}`, providerId: integration.providerId });
      return { kind: 'retry', rerunAt: new Date(Date.now() + turn.retryInMs), state, providerId: integration.providerId };
    }
    let error: ProviderError;
    try {
      if (!provider) throw new ProviderError(`${integration.providerId} cannot send in this version of Herald`, false);
      const receipt = await provider.send(input.messageFor(integration), integration.credentials, { maxConnections: integration.configurations.maxConcurrentSends });
      reportInvalid(integration.providerId, receipt.invalidDeviceTokens);
      const id = receipt.providerMessageId ? `, message id ${receipt.providerMessageId}` : '';
      details.push({ status: 'Success', source: 'Internal', detail: `sent via ${name}${id}`, providerId: integration.providerId, raw: receipt.raw ?? null });
      return { kind: 'sent', integration, receipt };
    } catch (thrown) {
      error = normalise(thrown);
      reportInvalid(integration.providerId, error.extra.invalidDeviceTokens);
    } finally {
      turn?.release();
    }
    const failure = (suffix: string): ExecutionDetailDraft => ({
      status: 'Failed',
      source: 'Credentials',
      detail: `provider error: ${name}: ${error.message}${error.extra.code ? ` [${error.extra.code}]` : ''} (attempt ${state.sends}, ${suffix})`,
      providerId: integration.providerId,
      raw: error.raw ?? null,
    });
    if (error.retryable) state.streak++;
    else {
      state.excluded.push(integration.id);
      state.streak = 0;
    }
    const next = after(integration);
    if (state.sends >= policy.maxAttempts) {
      details.push(failure(`gave up after ${state.sends} attempts`));
      return { kind: 'failed', providerId: integration.providerId };
    }
    if (next && (!error.retryable || state.streak >= policy.failoverAfter)) {
      details.push(failure(error.retryable ? `failed ${state.streak} times in a row` : 'permanent, not retried'));
      details.push({ status: 'Warning', source: 'Internal', detail: `failing over from ${name} to ${next.providerId} (${next.identifier})`, providerId: next.providerId });
      state.streak = 0;
      current = next;
      continue;
    }
    if (!error.retryable) {
      details.push(failure('permanent, not retried'));
      return { kind: 'failed', providerId: integration.providerId };
    }
    const delay = retryDelayMs(policy, input.run, input.random(), error.extra.retryAfterMs);
    details.push(failure(`retrying in ${seconds(delay)}`));
    return { kind: 'retry', rerunAt: new Date(input.now.getTime() + delay), state, providerId: integration.providerId };
  }
  details.push({ status: 'Failed', source: 'Credentials', detail: 'every integration of the channel refused this message permanently' });
  return { kind: 'failed', providerId: candidates[candidates.length - 1]?.providerId ?? '' };
}
