import type { WorkflowStepType } from '../entities/channel';
import type { BridgeStepState } from '../entities/bridge';
import type { InAppMessageState } from '../entities/delivery';
import { isObject, type JsonObject } from './control-reader';

/**
 * What the framework replays for an earlier step, shaped to the step type's result schema (it
 * refuses other shapes): a digest's events, a delay's duration (how long it held the workflow, in
 * ms), a custom step's own result, an in-app message's state as the subscriber left it (unseen and
 * unread when none was stored), fixed shapes for the rest.
 */
export function stepResult(type: WorkflowStepType, output: unknown, inApp?: InAppMessageState): JsonObject {
  const recorded = isObject(output) ? output : {};
  switch (type) {
    case 'custom':
    case 'http_request':
      return recorded;
    case 'digest': {
      const events = (Array.isArray(recorded.events) ? recorded.events : []).filter(isObject).map((e) => ({
        id: String(e.id ?? ''),
        time: String(e.time ?? ''),
        payload: isObject(e.payload) ? e.payload : {},
      }));
      return { events, eventCount: events.length };
    }
    case 'delay':
      return { duration: typeof recorded.durationMs === 'number' ? recorded.durationMs : 0 };
    case 'throttle':
      return { throttled: false };
    case 'in_app':
      return {
        seen: inApp?.seen ?? false,
        read: inApp?.read ?? false,
        lastSeenDate: inApp?.lastSeenDate?.toISOString() ?? null,
        lastReadDate: inApp?.lastReadDate?.toISOString() ?? null,
      };
    default:
      return {};
  }
}

/** The `state` of an execute call: every step before the one run, in workflow order. */
export function bridgeState(
  earlier: Array<{ stepId: string; type: WorkflowStepType }>,
  outputs: Record<string, unknown>,
  inApp: Record<string, InAppMessageState> = {},
): BridgeStepState[] {
  return earlier.map((s) => ({ stepId: s.stepId, outputs: stepResult(s.type, outputs[s.stepId], inApp[s.stepId]), state: { status: 'completed', error: null } }));
}
