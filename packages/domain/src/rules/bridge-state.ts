import type { WorkflowStepType } from '../entities/channel';
import type { BridgeStepState } from '../entities/bridge';
import { isObject, type JsonObject } from './control-reader';

/**
 * What the framework replays for an earlier step, shaped to the step type's result schema (it
 * refuses other shapes): a digest's events, a custom step's own result, fixed shapes for the rest.
 * Herald does not report an in-app message's read state here: it is always unseen and unread.
 */
export function stepResult(type: WorkflowStepType, output: unknown): JsonObject {
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
      return { duration: typeof recorded.lateMs === 'number' ? recorded.lateMs : 0 };
    case 'throttle':
      return { throttled: false };
    case 'in_app':
      return { seen: false, read: false, lastSeenDate: null, lastReadDate: null };
    default:
      return {};
  }
}

/** The `state` of an execute call: every step before the one run, in workflow order. */
export function bridgeState(earlier: Array<{ stepId: string; type: WorkflowStepType }>, outputs: Record<string, unknown>): BridgeStepState[] {
  return earlier.map((s) => ({ stepId: s.stepId, outputs: stepResult(s.type, outputs[s.stepId]), state: { status: 'completed', error: null } }));
}
