import type { JsonObject } from './delivery';

/**
 * The bridge protocol of @novu/framework 2.x (docs/workflows-as-code.md): what Herald sends a
 * bridge and what it answers. Names follow the framework's own.
 */

/** One earlier step as the bridge replays it: `outputs` must satisfy the step type's result schema. */
export interface BridgeStepState {
  stepId: string;
  outputs: JsonObject;
  state: { status: string; error?: string | null };
}

/** The body of an execute or preview call. */
export interface BridgeEvent {
  payload: JsonObject;
  subscriber: JsonObject;
  /** The control values Herald keeps for the step being run (edited through the API). */
  controls: JsonObject;
  state: BridgeStepState[];
  context: JsonObject;
}

/** A step's result from the bridge: its outputs (rendered content, durations...) and whether to skip it. */
export interface BridgeExecution {
  outputs: JsonObject;
  providers: JsonObject;
  options: { skip?: boolean };
}

/** Why a bridge call did not give an answer; `retryable` for 5xx, 408, 429 and network failures. */
export interface BridgeFailure {
  status: number | null;
  /** The framework's error code (SignatureMismatchError, ExecutionEventPayloadInvalidError...), when it sent one. */
  code: string | null;
  /** The bridge's own message, or what went wrong reaching it. */
  message: string;
  retryable: boolean;
  /** The bridge's answer as it came (cut to 4,000 characters), for the activity log. */
  raw: string | null;
}

export type BridgeAnswer<T> = { ok: true; value: T } | { ok: false; failure: BridgeFailure };

export const BRIDGE_ACTIONS = ['discover', 'health-check', 'execute', 'preview'] as const;
